#pragma once
// The median of a benchmark's repeated timings (host clock or CUDA events): one run
// disturbed by the host or another process does not set the figure.
#include <algorithm>
#include <vector>

namespace ws::bench {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace ws::bench
