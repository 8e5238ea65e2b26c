// Structs of the pedestrian render pass (pedestrian.wgsl), shared with the host layout
// (src/humans/pedestrian-layout.ts, checked by pedestrian-layout.browser.test.ts).

// One pedestrian's placement, material and (for reference) nothing of its shape: the shape is in
// the skinned vertices. Colours are sRGB (display) values in [0, 1]. Kinds and patterns are small
// integers stored as f32 (HAIR_STYLES, UPPER_KINDS, LOWER_KINDS, FABRIC_PATTERNS in
// src/humans/pedestrian-appearance.ts).
struct PedestrianInstance {
  position: vec3f,        // world position of the body-frame origin (between the feet, on the ground), metres
  yaw: f32,               // heading: body x axis = (cos yaw, sin yaw, 0) in the world, radians
  skinColor: vec3f,
  hairStyle: f32,         // 0 bald, 1 short, 2 long
  hairColor: vec3f,
  patternScale: f32,      // fabric pattern period on the rest-pose body, metres
  upperColor: vec3f,
  upperKind: f32,         // 0 t-shirt, 1 long-sleeved shirt, 2 open jacket over innerColor, 3 dress
  upperColor2: vec3f,     // second colour of the upper fabric's pattern
  upperPattern: f32,      // 0 plain, 1 stripes, 2 check, 3 denim, 4 print
  lowerColor: vec3f,
  lowerKind: f32,         // 0 trousers, 1 shorts, 2 skirt (ignored under a dress)
  lowerColor2: vec3f,
  lowerPattern: f32,
  shoeColor: vec3f,
  patternSeed: f32,       // [0, 1): varies the print
  innerColor: vec3f,      // shirt under an open jacket
  pad: f32,
}

// Sun + sky lighting, set by the caller so pedestrians match the city.
struct PedestrianLighting {
  sunDirection: vec3f,    // unit vector towards the sun, world frame
  exposure: f32,          // scales lit linear colour before sRGB encoding
  sunColor: vec3f,        // linear sun irradiance factor
  wrap: f32,              // wrap lighting (0 = Lambert, 0.3 softens the terminator)
  skyColor: vec3f,        // linear ambient from above
  pad0: f32,
  groundColor: vec3f,     // linear ambient from below (ground bounce)
  pad1: f32,
  fogColor: vec3f,        // display RGB the output blends towards with distance
  fogDensity: f32,        // 1/m: output = mix(fogColor, colour, exp(−fogDensity · distance))
}
