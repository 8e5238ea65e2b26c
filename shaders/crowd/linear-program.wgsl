// ORCA's linear programs (van den Berg et al. 2011 §5.2; RVO2 src/Agent.cc linearProgram1/2/3,
// same names and argument order, plus `lineCount` after `lines` where RVO2 uses lines.size()).
// A Line permits velocities to the left of point + t·direction. Prepended to crowd/orca.wgsl;
// TypeScript twin: src/crowd/linear-program.ts.

// Capacity of the private line arrays (array sizes cannot be overrides outside workgroup memory);
// the host checks MAX_NEIGHBORS + MAX_OBSTACLE_NEIGHBORS <= ORCA_LINE_CAPACITY.
const ORCA_LINE_CAPACITY: u32 = 32u;
const RVO_EPSILON: f32 = 0.00001;

struct Line {
  point: vec2f,
  direction: vec2f,
}
alias LineArray = array<Line, ORCA_LINE_CAPACITY>;

var<private> projLines: LineArray;

fn det(a: vec2f, b: vec2f) -> f32 {
  return a.x * b.y - a.y * b.x;
}

fn absSq(a: vec2f) -> f32 {
  return dot(a, a);
}

fn linearProgram1(lines: ptr<private, LineArray>, lineNo: u32, radius: f32, optVelocity: vec2f, directionOpt: bool, result: ptr<function, vec2f>) -> bool {
  let line = (*lines)[lineNo];
  let dotProduct = dot(line.point, line.direction);
  let discriminant = dotProduct * dotProduct + radius * radius - absSq(line.point);
  if (discriminant < 0.0) {
    return false; // Max speed circle fully invalidates line lineNo.
  }
  let sqrtDiscriminant = sqrt(discriminant);
  var tLeft = -dotProduct - sqrtDiscriminant;
  var tRight = -dotProduct + sqrtDiscriminant;
  for (var i = 0u; i < lineNo; i++) {
    let other = (*lines)[i];
    let denominator = det(line.direction, other.direction);
    let numerator = det(other.direction, line.point - other.point);
    if (abs(denominator) <= RVO_EPSILON) {
      // Lines lineNo and i are (almost) parallel.
      if (numerator < 0.0) {
        return false;
      }
      continue;
    }
    let t = numerator / denominator;
    if (denominator >= 0.0) {
      tRight = min(tRight, t); // Line i bounds line lineNo on the right.
    } else {
      tLeft = max(tLeft, t); // Line i bounds line lineNo on the left.
    }
    if (tLeft > tRight) {
      return false;
    }
  }
  if (directionOpt) {
    // Optimise direction.
    if (dot(optVelocity, line.direction) > 0.0) {
      *result = line.point + tRight * line.direction;
    } else {
      *result = line.point + tLeft * line.direction;
    }
  } else {
    // Optimise closest point.
    let t = dot(line.direction, optVelocity - line.point);
    if (t < tLeft) {
      *result = line.point + tLeft * line.direction;
    } else if (t > tRight) {
      *result = line.point + tRight * line.direction;
    } else {
      *result = line.point + t * line.direction;
    }
  }
  return true;
}

fn linearProgram2(lines: ptr<private, LineArray>, lineCount: u32, radius: f32, optVelocity: vec2f, directionOpt: bool, result: ptr<function, vec2f>) -> u32 {
  if (directionOpt) {
    *result = optVelocity * radius; // optVelocity is a unit vector here.
  } else if (absSq(optVelocity) > radius * radius) {
    *result = normalize(optVelocity) * radius; // Closest point, outside the circle.
  } else {
    *result = optVelocity; // Closest point, inside the circle.
  }
  for (var i = 0u; i < lineCount; i++) {
    if (det((*lines)[i].direction, (*lines)[i].point - *result) > 0.0) {
      // Result does not satisfy constraint i: compute a new optimum on line i.
      let tempResult = *result;
      if (!linearProgram1(lines, i, radius, optVelocity, directionOpt, result)) {
        *result = tempResult;
        return i;
      }
    }
  }
  return lineCount;
}

fn linearProgram3(lines: ptr<private, LineArray>, lineCount: u32, numObstLines: u32, beginLine: u32, radius: f32, result: ptr<function, vec2f>) {
  var distance = 0.0;
  for (var i = beginLine; i < lineCount; i++) {
    let lineI = (*lines)[i];
    if (det(lineI.direction, lineI.point - *result) > distance) {
      // Result does not satisfy the constraint of line i.
      var projCount = numObstLines;
      for (var k = 0u; k < numObstLines; k++) {
        projLines[k] = (*lines)[k];
      }
      for (var j = numObstLines; j < i; j++) {
        let lineJ = (*lines)[j];
        var point: vec2f;
        let determinant = det(lineI.direction, lineJ.direction);
        if (abs(determinant) <= RVO_EPSILON) {
          // Line i and line j are parallel.
          if (dot(lineI.direction, lineJ.direction) > 0.0) {
            continue; // Same direction.
          }
          point = 0.5 * (lineI.point + lineJ.point); // Opposite direction.
        } else {
          point = lineI.point + (det(lineJ.direction, lineI.point - lineJ.point) / determinant) * lineI.direction;
        }
        projLines[projCount] = Line(point, normalize(lineJ.direction - lineI.direction));
        projCount += 1u;
      }
      let tempResult = *result;
      if (linearProgram2(&projLines, projCount, radius, vec2f(-lineI.direction.y, lineI.direction.x), true, result) < projCount) {
        // Floating-point error only (the result is feasible by construction): keep it.
        *result = tempResult;
      }
      distance = det(lineI.direction, lineI.point - *result);
    }
  }
}

