// Batched separating-axis test: does the axis-aligned rectangle i overlap triangle i?
// Written as plain C++ (loops over corners and axes); culift lifts it to a 1-D kernel over i.
//
//   rectMin[2*i .. 2*i+1]   lower-left corner (x, y)
//   rectMax[2*i .. 2*i+1]   upper-right corner (x, y)
//   triangle[6*i .. 6*i+5]  vertices (x0, y0, x1, y1, x2, y2)
//
// Axes: the two world axes and the three triangle edge normals, normalized as n / (|n| + 1e-8).
// The shapes are separated on an axis when r1 < t0 - eps || t1 < r0 - eps (eps = 1e-6).
// Result: 1.0 when they overlap (no separating axis), else 0.0.
#pragma once

#include <cmath>

#include <culift/annotate.hpp>

CULIFT_KERNEL inline float RectTriangleOverlap(const float* rectMin, const float* rectMax, const float* triangle,
                                               int i) {
  const float eps = 1e-6f;

  // The rectangle's four corners, the triangle's three vertices.
  float cx[4] = {rectMin[2 * i], rectMax[2 * i], rectMax[2 * i], rectMin[2 * i]};
  float cy[4] = {rectMin[2 * i + 1], rectMin[2 * i + 1], rectMax[2 * i + 1], rectMax[2 * i + 1]};
  float tx[3];
  float ty[3];
  for (int v = 0; v < 3; ++v) {
    tx[v] = triangle[6 * i + 2 * v];
    ty[v] = triangle[6 * i + 2 * v + 1];
  }

  // Candidate separating axes.
  float ax[5];
  float ay[5];
  ax[0] = 1.0f;
  ay[0] = 0.0f;
  ax[1] = 0.0f;
  ay[1] = 1.0f;
  for (int e = 0; e < 3; ++e) {
    int next = (e + 1) % 3;
    float ex = tx[next] - tx[e];
    float ey = ty[next] - ty[e];
    float nx = -ey;
    float ny = ex;
    float len = std::sqrt(nx * nx + ny * ny) + 1e-8f;
    ax[2 + e] = nx / len;
    ay[2 + e] = ny / len;
  }

  for (int a = 0; a < 5; ++a) {
    float r0 = cx[0] * ax[a] + cy[0] * ay[a];
    float r1 = r0;
    for (int c = 1; c < 4; ++c) {
      float p = cx[c] * ax[a] + cy[c] * ay[a];
      r0 = std::fmin(r0, p);
      r1 = std::fmax(r1, p);
    }
    float t0 = tx[0] * ax[a] + ty[0] * ay[a];
    float t1 = t0;
    for (int v = 1; v < 3; ++v) {
      float p = tx[v] * ax[a] + ty[v] * ay[a];
      t0 = std::fmin(t0, p);
      t1 = std::fmax(t1, p);
    }
    if (r1 < t0 - eps || t1 < r0 - eps) {
      return 0.0f;  // a separating axis exists
    }
  }
  return 1.0f;
}
