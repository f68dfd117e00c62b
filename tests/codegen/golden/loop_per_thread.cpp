// Loops the planner leaves as written, each for a reason `culift ast` reports.
#include <culift/annotate.hpp>

// The bound of k depends on i (a triangle): per-thread.
CULIFT_KERNEL float Prefix(const float* x, int cols, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k <= i; ++k) s += x[k * cols + j];
  return s;
}

// Consecutive i read elements two apart, neither a row nor a column: per-thread.
CULIFT_KERNEL float StridedColumn(const float* x, int rows, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[k * rows + 2 * i];
  return s;
}
