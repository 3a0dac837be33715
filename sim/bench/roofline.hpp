#pragma once
// Honest GPU timing for the benchmarks: CUDA events after warm-up, medians of
// repeated measurements, and the device-to-device copy bandwidth measured in the
// same run, which is the roofline every kernel is reported against.
#include <cuda_runtime.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ws::bench {

struct TimingStats {
  double median_s = 0.0, min_s = 0.0, max_s = 0.0;
  int samples = 0;
};

// Runs body(stream) `warmup` times untimed, then `reps` times, each timed with a
// pair of CUDA events; returns the median, min and max seconds per call.
TimingStats time_on_stream(const std::function<void(cudaStream_t)>& body, cudaStream_t stream, int warmup, int reps);

// Device-to-device cudaMemcpyAsync of `bytes` (default 1 GiB or a quarter of free
// memory, whichever is less), median of `reps`; returns GB/s counting the bytes
// read plus the bytes written (2 * bytes / t), the bandwidth a streaming stencil
// that reads one array and writes another can at best use.
double measure_copy_bandwidth_gbs(size_t bytes = 0, int reps = 15);

// The device's L2 bandwidth, the roofline of kernels whose fields stay in L2 (the
// persistent kernel): one launch in which every thread copies its 16-byte pieces of
// a buffer of a quarter of L2 into another and back, `passes` times, so nothing
// leaves L2 after the first pass; median of `reps` launches after warm-up; GB/s
// counting bytes read plus bytes written, as the copy roofline does.
double measure_l2_bandwidth_gbs(int passes = 200, int reps = 9);

// Roofline in Gpoints/s for a kernel that must move `bytes_per_point` per point.
inline double roofline_gpoints(double copy_gbs, double bytes_per_point) { return copy_gbs / bytes_per_point; }

std::string device_name();

// One benchmark result; `extra` carries benchmark-specific fields.
struct BenchRecord {
  std::string benchmark;  // "webb", "stencils", "sediment"
  std::string variant;
  std::string precision;
  long long nx = 0, ny = 0, nz = 0;
  long long steps = 0;
  double seconds = 0.0;          // for `steps` steps (extrapolated when `extrapolated`)
  bool extrapolated = false;
  double gpoints_per_s = 0.0;
  double bytes_per_point = 0.0;
  double copy_gbs = 0.0;
  double roofline_fraction = 0.0;
  std::string device;
  nlohmann::json extra = nlohmann::json::object();
};

nlohmann::json to_json(const BenchRecord& r);
void write_json_records(const std::string& path, const std::vector<BenchRecord>& records);

}  // namespace ws::bench
