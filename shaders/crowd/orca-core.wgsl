// ORCA half-planes shared by the crowd kernels (orca.wgsl, behaviours.wgsl): obstacle lines and the
// agent line of van den Berg et al. 2011 (RVO2 src/Agent.cc, same names, branches and argument
// order), and the sorted neighbour list. Prepended after crowd-types.wgsl and linear-program.wgsl;
// TypeScript twin: src/crowd/orca.ts.
//
// The including kernel declares `obstacleVertices: array<ObstacleVertex>` (storage); obstacleLines
// reads the obstacle neighbours from nbrIndex[0 .. count) and writes orcaLines[0 ..).

const FLT_MAX: f32 = 3.402823466e38;

var<private> orcaLines: LineArray;
var<private> nbrDistSq: array<f32, ORCA_LINE_CAPACITY>;
var<private> nbrIndex: array<u32, ORCA_LINE_CAPACITY>;

fn leftOf(a: vec2f, b: vec2f, c: vec2f) -> f32 {
  return det(a - c, b - a);
}

fn distSqPointLineSegment(a: vec2f, b: vec2f, c: vec2f) -> f32 {
  let r = dot(c - a, b - a) / absSq(b - a);
  if (r < 0.0) {
    return absSq(c - a);
  }
  if (r > 1.0) {
    return absSq(c - b);
  }
  return absSq(c - (a + r * (b - a)));
}

// (d, j) orders before (e, k): by squared distance, then index.
fn closer(d: f32, j: u32, e: f32, k: u32) -> bool {
  return d < e || (d == e && j < k);
}

// Inserts (d, j) into the sorted list nbr[0 .. *count) of capacity cap; returns nothing.
fn insertNeighbor(d: f32, j: u32, count: ptr<function, u32>, cap: u32) {
  var pos: u32;
  if (*count == cap) {
    if (cap == 0u || !closer(d, j, nbrDistSq[cap - 1u], nbrIndex[cap - 1u])) {
      return;
    }
    pos = cap - 1u;
  } else {
    pos = *count;
    *count += 1u;
  }
  while (pos > 0u && closer(d, j, nbrDistSq[pos - 1u], nbrIndex[pos - 1u])) {
    nbrDistSq[pos] = nbrDistSq[pos - 1u];
    nbrIndex[pos] = nbrIndex[pos - 1u];
    pos -= 1u;
  }
  nbrDistSq[pos] = d;
  nbrIndex[pos] = j;
}

// RVO2's obstacle neighbours (src/crowd/obstacles.ts obstacleNeighbors): the edges of vertices
// range.x .. range.y − 1 that `position` is strictly right of, with segment distSq < rangeSq, the
// nearest `cap` by (distSq, index) into nbrIndex; returns their count.
fn obstacleNeighbors(position: vec2f, range: vec2u, rangeSq: f32, cap: u32) -> u32 {
  var count = 0u;
  for (var k = range.x; k < range.y; k++) {
    let v1 = obstacleVertices[k].point;
    let v2 = obstacleVertices[obstacleVertices[k].next].point;
    if (leftOf(v1, v2, position) >= 0.0) {
      continue;
    }
    let d = distSqPointLineSegment(v1, v2, position);
    if (d < rangeSq) {
      insertNeighbor(d, k, &count, cap);
    }
  }
  return count;
}

// Legs from a vertex at rel (distSq = |rel|²): x = left leg, y = right leg direction (as mat2 cols).
fn legsFrom(rel: vec2f, distSq: f32, radius: f32) -> mat2x2f {
  let leg = sqrt(distSq - radius * radius);
  return mat2x2f(
    vec2f(rel.x * leg - rel.y * radius, rel.x * radius + rel.y * leg) / distSq,
    vec2f(rel.x * leg + rel.y * radius, -rel.x * radius + rel.y * leg) / distSq,
  );
}

fn cutoffCircleLine(velocity: vec2f, centre: vec2f, radius: f32, invTimeHorizonObst: f32) -> Line {
  let unitW = normalize(velocity - centre);
  return Line(centre + radius * invTimeHorizonObst * unitW, vec2f(unitW.y, -unitW.x));
}

fn lineAlong(direction: vec2f, origin: vec2f, radius: f32, invTimeHorizonObst: f32) -> Line {
  return Line(origin + radius * invTimeHorizonObst * vec2f(-direction.y, direction.x), direction);
}

// Obstacle ORCA lines (RVO2 Agent.cc, first loop) for the obstacle neighbours nbr[0 .. count).
fn obstacleLines(position: vec2f, velocity: vec2f, radius: f32, timeHorizonObst: f32, count: u32) -> u32 {
  let invTimeHorizonObst = 1.0 / timeHorizonObst;
  var lineCount = 0u;
  for (var n = 0u; n < count; n++) {
    var o1 = nbrIndex[n];
    var o2 = obstacleVertices[o1].next;
    let relativePosition1 = obstacleVertices[o1].point - position;
    let relativePosition2 = obstacleVertices[o2].point - position;
    // Already covered by a previous obstacle line?
    var alreadyCovered = false;
    for (var j = 0u; j < lineCount; j++) {
      let l = orcaLines[j];
      if (det(invTimeHorizonObst * relativePosition1 - l.point, l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON &&
          det(invTimeHorizonObst * relativePosition2 - l.point, l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON) {
        alreadyCovered = true;
        break;
      }
    }
    if (alreadyCovered) {
      continue;
    }
    // Not yet covered: check for collisions.
    let distSq1 = absSq(relativePosition1);
    let distSq2 = absSq(relativePosition2);
    let radiusSq = radius * radius;
    let obstacleVector = obstacleVertices[o2].point - obstacleVertices[o1].point;
    let s = dot(-relativePosition1, obstacleVector) / absSq(obstacleVector);
    let distSqLine = absSq(-relativePosition1 - s * obstacleVector);
    if (s < 0.0 && distSq1 <= radiusSq) {
      // Collision with left vertex; ignored if non-convex.
      if (obstacleVertices[o1].isConvex != 0u) {
        orcaLines[lineCount] = Line(vec2f(0.0), normalize(vec2f(-relativePosition1.y, relativePosition1.x)));
        lineCount += 1u;
      }
      continue;
    }
    if (s > 1.0 && distSq2 <= radiusSq) {
      // Collision with right vertex; ignored if non-convex or handled by the neighbouring edge.
      if (obstacleVertices[o2].isConvex != 0u && det(relativePosition2, obstacleVertices[o2].unitDir) >= 0.0) {
        orcaLines[lineCount] = Line(vec2f(0.0), normalize(vec2f(-relativePosition2.y, relativePosition2.x)));
        lineCount += 1u;
      }
      continue;
    }
    if (s >= 0.0 && s <= 1.0 && distSqLine <= radiusSq) {
      // Collision with the obstacle segment.
      orcaLines[lineCount] = Line(vec2f(0.0), -obstacleVertices[o1].unitDir);
      lineCount += 1u;
      continue;
    }
    // No collision: compute legs.
    var leftLegDirection: vec2f;
    var rightLegDirection: vec2f;
    if (s < 0.0 && distSqLine <= radiusSq) {
      // Seen obliquely: the left vertex defines the velocity obstacle.
      if (obstacleVertices[o1].isConvex == 0u) {
        continue;
      }
      o2 = o1;
      let legs = legsFrom(relativePosition1, distSq1, radius);
      leftLegDirection = legs[0];
      rightLegDirection = legs[1];
    } else if (s > 1.0 && distSqLine <= radiusSq) {
      // Seen obliquely: the right vertex defines the velocity obstacle.
      if (obstacleVertices[o2].isConvex == 0u) {
        continue;
      }
      o1 = o2;
      let legs = legsFrom(relativePosition2, distSq2, radius);
      leftLegDirection = legs[0];
      rightLegDirection = legs[1];
    } else {
      // Usual situation.
      if (obstacleVertices[o1].isConvex != 0u) {
        leftLegDirection = legsFrom(relativePosition1, distSq1, radius)[0];
      } else {
        leftLegDirection = -obstacleVertices[o1].unitDir; // Left leg extends the cut-off line.
      }
      if (obstacleVertices[o2].isConvex != 0u) {
        rightLegDirection = legsFrom(relativePosition2, distSq2, radius)[1];
      } else {
        rightLegDirection = obstacleVertices[o1].unitDir; // Right leg extends the cut-off line.
      }
    }
    // Legs never point into the neighbouring edge at a convex vertex ("foreign" legs).
    let obstacle1 = obstacleVertices[o1];
    let obstacle2 = obstacleVertices[o2];
    let leftNeighborDir = obstacleVertices[obstacle1.prev].unitDir;
    var isLeftLegForeign = false;
    var isRightLegForeign = false;
    if (obstacle1.isConvex != 0u && det(leftLegDirection, -leftNeighborDir) >= 0.0) {
      leftLegDirection = -leftNeighborDir; // Left leg points into obstacle.
      isLeftLegForeign = true;
    }
    if (obstacle2.isConvex != 0u && det(rightLegDirection, obstacle2.unitDir) <= 0.0) {
      rightLegDirection = obstacle2.unitDir; // Right leg points into obstacle.
      isRightLegForeign = true;
    }
    // Cut-off centres; project the current velocity on the velocity obstacle.
    let leftCutoff = invTimeHorizonObst * (obstacle1.point - position);
    let rightCutoff = invTimeHorizonObst * (obstacle2.point - position);
    let cutoffVec = rightCutoff - leftCutoff;
    let sameVertex = o1 == o2;
    var t = 0.5;
    if (!sameVertex) {
      t = dot(velocity - leftCutoff, cutoffVec) / absSq(cutoffVec);
    }
    let tLeft = dot(velocity - leftCutoff, leftLegDirection);
    let tRight = dot(velocity - rightCutoff, rightLegDirection);
    if ((t < 0.0 && tLeft < 0.0) || (sameVertex && tLeft < 0.0 && tRight < 0.0)) {
      orcaLines[lineCount] = cutoffCircleLine(velocity, leftCutoff, radius, invTimeHorizonObst); // Left cut-off circle.
      lineCount += 1u;
      continue;
    }
    if (t > 1.0 && tRight < 0.0) {
      orcaLines[lineCount] = cutoffCircleLine(velocity, rightCutoff, radius, invTimeHorizonObst); // Right cut-off circle.
      lineCount += 1u;
      continue;
    }
    // Project on the left leg, right leg or cut-off line, whichever is closest to the velocity.
    var distSqCutoff = FLT_MAX;
    if (!(t < 0.0 || t > 1.0 || sameVertex)) {
      distSqCutoff = absSq(velocity - (leftCutoff + t * cutoffVec));
    }
    var distSqLeft = FLT_MAX;
    if (tLeft >= 0.0) {
      distSqLeft = absSq(velocity - (leftCutoff + tLeft * leftLegDirection));
    }
    var distSqRight = FLT_MAX;
    if (tRight >= 0.0) {
      distSqRight = absSq(velocity - (rightCutoff + tRight * rightLegDirection));
    }
    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      orcaLines[lineCount] = lineAlong(-obstacle1.unitDir, leftCutoff, radius, invTimeHorizonObst); // Cut-off line.
      lineCount += 1u;
      continue;
    }
    if (distSqLeft <= distSqRight) {
      if (!isLeftLegForeign) {
        orcaLines[lineCount] = lineAlong(leftLegDirection, leftCutoff, radius, invTimeHorizonObst); // Left leg.
        lineCount += 1u;
      }
      continue;
    }
    if (!isRightLegForeign) {
      orcaLines[lineCount] = lineAlong(-rightLegDirection, rightCutoff, radius, invTimeHorizonObst); // Right leg.
      lineCount += 1u;
    }
  }
  return lineCount;
}

// The ORCA half-plane of an agent (position, velocity, radius, timeHorizon, responsibility) induced
// by a neighbour disc (otherPosition, otherVelocity, otherRadius) (RVO2 Agent.cc, second loop;
// the collision case cuts off at one step of timeStep s).
fn agentLine(position: vec2f, velocity: vec2f, radius: f32, timeHorizon: f32, responsibility: f32,
             otherPosition: vec2f, otherVelocity: vec2f, otherRadius: f32, timeStep: f32) -> Line {
  let invTimeHorizon = 1.0 / timeHorizon;
  let relativePosition = otherPosition - position;
  let relativeVelocity = velocity - otherVelocity;
  let distSq = absSq(relativePosition);
  let combinedRadius = radius + otherRadius;
  let combinedRadiusSq = combinedRadius * combinedRadius;
  var direction: vec2f;
  var u: vec2f;
  if (distSq > combinedRadiusSq) {
    // No collision. w: from the cut-off centre to the relative velocity.
    let w = relativeVelocity - invTimeHorizon * relativePosition;
    let wLengthSq = absSq(w);
    let dotProduct1 = dot(w, relativePosition);
    if (dotProduct1 < 0.0 && dotProduct1 * dotProduct1 > combinedRadiusSq * wLengthSq) {
      // Project on cut-off circle.
      let wLength = sqrt(wLengthSq);
      let unitW = w / wLength;
      direction = vec2f(unitW.y, -unitW.x);
      u = (combinedRadius * invTimeHorizon - wLength) * unitW;
    } else {
      // Project on legs.
      let leg = sqrt(distSq - combinedRadiusSq);
      let p = relativePosition;
      if (det(relativePosition, w) > 0.0) {
        direction = vec2f(p.x * leg - p.y * combinedRadius, p.x * combinedRadius + p.y * leg) / distSq; // Left leg.
      } else {
        direction = -vec2f(p.x * leg + p.y * combinedRadius, -p.x * combinedRadius + p.y * leg) / distSq; // Right leg.
      }
      u = dot(relativeVelocity, direction) * direction - relativeVelocity;
    }
  } else {
    // Collision: project on the cut-off circle of time timeStep.
    let invTimeStep = 1.0 / timeStep;
    let w = relativeVelocity - invTimeStep * relativePosition;
    let wLength = length(w);
    let unitW = w / wLength;
    direction = vec2f(unitW.y, -unitW.x);
    u = (combinedRadius * invTimeStep - wLength) * unitW;
  }
  return Line(velocity + responsibility * u, direction);
}
