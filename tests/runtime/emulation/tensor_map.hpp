// A tensor map as the host emulation of the entries on warpgroups takes it (host_prelude.hpp's bulk
// tensor copies): the row-major matrix itself and the box, in the 128 bytes of the device's map.
#pragma once

struct culift_tensor_map {
  const float* base;
  long long rows, cols, stride;  // elements
  int boxCols, boxRows;
  unsigned long long unused[11];
};
static_assert(sizeof(culift_tensor_map) == 128);

// The map of a rows x cols matrix at `base`, rows `cols` elements apart, in boxes of boxCols x boxRows.
inline culift_tensor_map culift_emulated_tensor_map(const float* base, long long rows, long long cols, int boxCols,
                                                    int boxRows) {
  return culift_tensor_map{base, rows, cols, cols, boxCols, boxRows, {}};
}
