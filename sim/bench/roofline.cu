#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "bench/roofline.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace ws::bench {

TimingStats time_on_stream(const std::function<void(cudaStream_t)>& body, cudaStream_t stream, int warmup, int reps) {
  for (int w = 0; w < warmup; ++w) body(stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> t;
  CudaEvent a, b;
  for (int r = 0; r < reps; ++r) {
    a.record(stream);
    body(stream);
    b.record(stream);
    CUDA_CHECK(cudaEventSynchronize(b.get()));
    t.push_back(b.ms_since(a) * 1e-3);
  }
  std::sort(t.begin(), t.end());
  TimingStats s;
  s.samples = (int)t.size();
  if (!t.empty()) {
    s.min_s = t.front();
    s.max_s = t.back();
    s.median_s = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  }
  return s;
}

double measure_copy_bandwidth_gbs(size_t bytes, int reps) {
  if (bytes == 0) {
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    bytes = std::min<size_t>(size_t(1) << 30, free_b / 4);
  }
  DeviceBuffer<char> src(bytes), dst(bytes);
  CudaStream stream;
  // On the timing stream: a non-blocking stream is not ordered after the legacy default
  // stream, so a cudaMemset there could still be running when the first copy reads src.
  CUDA_CHECK(cudaMemsetAsync(src.get(), 1, bytes, stream.get()));
  const TimingStats s = time_on_stream(
      [&](cudaStream_t st) { CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, st)); },
      stream.get(), 3, reps);
  return 2.0 * (double)bytes / s.median_s * 1e-9;
}

namespace {

// Pass r copies a to b when r is even, b to a when odd; each thread touches only its
// own pieces, so the passes need no synchronisation between threads.
__global__ void l2_ping_pong(float4* a, float4* b, size_t n, int passes) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (int r = 0; r < passes; ++r) {
    const float4* src = (r % 2 == 0) ? a : b;
    float4* dst = (r % 2 == 0) ? b : a;
    for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < n; q += stride) dst[q] = src[q];
  }
}

}  // namespace

double measure_l2_bandwidth_gbs(int passes, int reps) {
  int dev = 0, l2 = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const size_t bytes = std::max<size_t>(1 << 20, (size_t)l2 / 4);
  const size_t n = bytes / sizeof(float4);
  DeviceBuffer<float4> a(n), b(n);
  CudaStream stream;
  CUDA_CHECK(cudaMemsetAsync(a.get(), 0, a.bytes(), stream.get()));  // ordered before the passes (see above)
  CUDA_CHECK(cudaMemsetAsync(b.get(), 0, b.bytes(), stream.get()));
  const TimingStats s = time_on_stream(
      [&](cudaStream_t st) {
        l2_ping_pong<<<(unsigned)(4 * sms), 512, 0, st>>>(a.get(), b.get(), n, passes);
        CUDA_CHECK_LAUNCH();
      },
      stream.get(), 2, reps);
  return 2.0 * (double)(n * sizeof(float4)) * passes / s.median_s * 1e-9;
}

std::string device_name() {
  cudaDeviceProp p{};
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  return p.name;
}

nlohmann::json to_json(const BenchRecord& r) {
  nlohmann::json j = {{"benchmark", r.benchmark},
                      {"variant", r.variant},
                      {"precision", r.precision},
                      {"nx", r.nx},
                      {"ny", r.ny},
                      {"nz", r.nz},
                      {"steps", r.steps},
                      {"seconds", r.seconds},
                      {"extrapolated", r.extrapolated},
                      {"gpoints_per_s", r.gpoints_per_s},
                      {"bytes_per_point", r.bytes_per_point},
                      {"copy_gbs", r.copy_gbs},
                      {"roofline_fraction", r.roofline_fraction},
                      {"device", r.device}};
  for (auto it = r.extra.begin(); it != r.extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

void write_json_records(const std::string& path, const std::vector<BenchRecord>& records) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : records) a.push_back(to_json(r));
  util::write_atomically(path, "JSON file", [&](std::ostream& out) { out << a.dump(2) << "\n"; });
}

}  // namespace ws::bench
