// Structs of the pedestrian render pass (pedestrian.wgsl), shared with the host layout
// (src/humans/pedestrian-layout.ts, checked by pedestrian-layout.browser.test.ts).

// One pedestrian's placement and appearance. Colours are sRGB (display) values in [0, 1].
struct PedestrianInstance {
  position: vec3f,        // world position of the body-frame origin (between the feet, on the ground), metres
  yaw: f32,               // heading: body x axis = (cos yaw, sin yaw, 0) in the world, radians
  skinColor: vec3f,
  stripePeriod: f32,      // stripes on the upper garment: period along the rest-pose height, metres (0 = plain)
  upperColor: vec3f,
  stripeFraction: f32,    // share of each period in stripeColor, [0, 1]
  lowerColor: vec3f,
  longSleeves: f32,       // 1 = forearms clothed in upperColor, 0 = bare
  hairColor: vec3f,
  hairLength: f32,        // 0 = short (cap), 1 = long (reaches the neck at the back)
  stripeColor: vec3f,
  shoeShade: f32,         // shoes are shoeShade × (1, 1, 1) blended towards lowerColor by 0.2
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
