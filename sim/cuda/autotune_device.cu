// The device side of `--kernel auto` (sim/cuda/autotune.hpp): the identity a cached
// choice is valid for, and the measurement of one candidate on the problem's grid.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "cuda/autotune.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/multi_scratch.hpp"
#include "ws_build_id.hpp"

namespace ws {

namespace {

// A reproducible field in [-1, 1) on the interior, zero on the halo and the padding
// (the fixed boundary every kernel expects).
template <class T>
__global__ void fill_random(T* u, FieldLayout L, unsigned seed) {
  const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t >= L.total) return;
  const auto [i, j, k] = L.point(t);
  T v = T(0);
  if (i >= 0 && i < L.nx && j >= 0 && j < L.ny && k >= 0 && k < L.nz) {
    uint32_t h = (uint32_t)t * 2654435761u ^ seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    v = T((double)h / 2147483648.0 - 1.0);
  }
  u[t] = v;
}

__device__ inline unsigned bits(float v) { return __float_as_uint(v); }
__device__ inline unsigned long long bits(double v) { return (unsigned long long)__double_as_longlong(v); }

// Interior points whose bits differ between a and b.
template <class T>
__global__ void count_differences(const T* a, const T* b, FieldLayout L, unsigned long long* n) {
  const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t >= L.total) return;
  const auto [i, j, k] = L.point(t);
  if (i < 0 || i >= L.nx || j < 0 || j >= L.ny || k < 0 || k >= L.nz) return;
  if (bits(a[t]) != bits(b[t])) atomicAdd(n, 1ull);
}

unsigned grid_for(int64_t n) { return (unsigned)((n + 255) / 256); }

template <class T>
class DeviceTuner {
 public:
  DeviceTuner(const Stencil& st, int nx, int ny, int nz) : stencil_(st) {
    L_ = make_layout(nx, ny, nz, halo_for(st), sizeof(T));
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (4 * L_.bytes(sizeof(T)) + (64u << 20) > free_b)
      throw std::runtime_error("autotune: four grids of " + std::to_string(L_.bytes(sizeof(T)) >> 20) +
                               " MiB do not fit in the " + std::to_string(free_b >> 20) + " MiB free");
    // lambda^2 at the stencil's limit: the arithmetic of a real run, stable for any field.
    lambda2_ = st.courant_max * st.courant_max;
    for (auto* b : {&cur_, &prev_, &ref_, &work_}) *b = DeviceBuffer<T>(L_.total);
    fill_random<T><<<grid_for(L_.total), 256, 0, stream_.get()>>>(cur_.get(), L_, 11u);
    fill_random<T><<<grid_for(L_.total), 256, 0, stream_.get()>>>(prev_.get(), L_, 12u);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  double measure(const TuneCandidate& c, double budget_s) {
    const KernelVariant& v = KernelRegistry::instance().at(c.kernel);
    const LaunchFn<T> fn = v.launch_for<T>();
    if (!fn) throw std::runtime_error("no " + std::string(to_string(precision_of<T>())) + " version");
    if (v.block_error) {
      const std::string why = v.block_error(stencil_, precision_of<T>(), c.block);
      if (!why.empty()) throw std::runtime_error(why);
    }
    const LaunchOptions o{c.block, true};
    // Bit for bit against the kernel at its preferred block: the same arithmetic, so
    // a block that changes a result is a block the kernel does not handle.
    const BlockShape pref = preferred_block(v, stencil_, precision_of<T>());
    one_step(fn, LaunchOptions{pref, true}, ref_.get());
    one_step(fn, o, work_.get());
    CUDA_CHECK(cudaMemsetAsync(diff_.get(), 0, sizeof(unsigned long long), stream_.get()));
    count_differences<T><<<grid_for(L_.total), 256, 0, stream_.get()>>>(ref_.get(), work_.get(), L_, diff_.get());
    CUDA_CHECK_LAUNCH();
    unsigned long long n = 0;
    CUDA_CHECK(cudaMemcpyAsync(&n, diff_.get(), sizeof n, cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    if (n != 0)
      throw std::runtime_error(std::to_string(n) + " points differ from the kernel's preferred block " +
                               std::to_string(pref.x) + "x" + std::to_string(pref.y) + "x" + std::to_string(pref.z));
    // Time: two steps to estimate, then as many as about half the budget allows (at
    // least 4, at most 400), the faster of two runs.
    const double est = timed_steps(v, o, 2) / 2;
    const int steps = (int)std::clamp(0.25 * budget_s / std::max(est, 1e-7), 4.0, 400.0);
    const double t = std::min(timed_steps(v, o, steps), timed_steps(v, o, steps));
    return t / steps;
  }

 private:
  // u^{n+1} of the random pair into `out` (prev copied there first: the update is in place).
  void one_step(LaunchFn<T> fn, const LaunchOptions& o, T* out) {
    CUDA_CHECK(cudaMemcpyAsync(out, prev_.get(), L_.bytes(sizeof(T)), cudaMemcpyDeviceToDevice, stream_.get()));
    fn(StepArgs<T>{out, cur_.get(), L_, &stencil_, lambda2_}, o, stream_.get());
  }

  // Steps on the work pair (the solver's alternation: each step overwrites the older level).
  double timed_steps(const KernelVariant& v, const LaunchOptions& o, int steps) {
    T* scratch = ensure_multi_scratch(scratch_, v, L_, stream_.get());
    CudaEvent a, b;
    T* x = work_.get();
    T* y = ref_.get();
    a.record(stream_.get());
    if (const MultiLaunchFn<T> multi = v.multi_for<T>()) {  // many steps per launch, as in the solver
      multi(MultiStepArgs<T>{y, x, steps, L_, &stencil_, lambda2_, nullptr, scratch}, o, stream_.get());
    } else {
      const LaunchFn<T> fn = v.launch_for<T>();
      for (int s = 0; s < steps; ++s) {
        fn(StepArgs<T>{x, y, L_, &stencil_, lambda2_}, o, stream_.get());
        std::swap(x, y);
      }
    }
    b.record(stream_.get());
    CUDA_CHECK(cudaEventSynchronize(b.get()));
    if (v.release) v.release();  // the next candidate gets the whole L2
    return b.ms_since(a) * 1e-3;
  }

  Stencil stencil_;
  FieldLayout L_;
  double lambda2_ = 0.0;
  CudaStream stream_;
  DeviceBuffer<T> cur_, prev_, ref_, work_;
  DeviceBuffer<unsigned long long> diff_{1};
  DeviceBuffer<T> scratch_;  // an out-of-place multi-step kernel's extra fields, allocated when one is timed
};

std::string nvidia_driver_version() {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  ..." : the fifth word on.
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (in && std::getline(in, line)) {
    const auto at = line.find("Kernel Module");
    if (at != std::string::npos) {
      std::istringstream words(line.substr(at + 13));
      std::string v;
      if (words >> v) return v;
    }
  }
  return "";
}

}  // namespace

TuneIdentity current_tune_identity() {
  TuneIdentity id;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  id.device = p.name;
  int drv = 0;
  CUDA_CHECK(cudaDriverGetVersion(&drv));
  const std::string nv = nvidia_driver_version();
  id.driver = (nv.empty() ? std::string() : nv + " / ") + "CUDA " + std::to_string(drv);
  id.build = WS_KERNEL_BUILD_ID;
  return id;
}

std::map<std::string, AutotuneCacheEntry> cached_auto_choices(std::string& note, const std::string& cache_path) {
  const std::string path = cache_path.empty() ? default_autotune_cache_path() : cache_path;
  if (path.empty()) {
    note = "no cache folder (neither XDG_CACHE_HOME nor HOME is set)";
    return {};
  }
  AutotuneCache c;
  std::string why;
  if (!read_cache_file(path, c, why)) {
    note = why.empty() ? "nothing tuned yet (no " + path + ")"
                       : path + " is not a valid cache (" + why + "); the next tuning rewrites it";
    return {};
  }
  int dev_count = 0;
  if (cudaGetDeviceCount(&dev_count) != cudaSuccess || dev_count == 0) {
    cudaGetLastError();
    note = path + " (written for " + c.identity.device + "); no usable CUDA device here to check it against";
    return {};
  }
  const TuneIdentity id = current_tune_identity();
  if (c.identity != id) {
    note = path + " was written for device '" + c.identity.device + "', driver '" + c.identity.driver +
           "', build '" + c.identity.build + "'; this is '" + id.device + "', '" + id.driver + "', '" + id.build +
           "': the next `--kernel auto` re-tunes";
    return {};
  }
  note = path + " (" + id.device + ", driver " + id.driver + ", build " + id.build + ")";
  return c.entries;
}

TuneChoice autotune_on_device(const Stencil& st, Precision p, int nx, int ny, int nz, const AutotuneOptions& o) {
  const TuneProblem problem{st.name, p, nx, ny, nz};
  // The device buffers are made only when a measurement is needed (not for a cache hit).
  std::unique_ptr<DeviceTuner<float>> tf;
  std::unique_ptr<DeviceTuner<double>> td;
  const TuneMeasure measure = [&](const TuneCandidate& c, double budget_s) {
    if (p == Precision::Float) {
      if (!tf) tf = std::make_unique<DeviceTuner<float>>(st, nx, ny, nz);
      return tf->measure(c, budget_s);
    }
    if (!td) td = std::make_unique<DeviceTuner<double>>(st, nx, ny, nz);
    return td->measure(c, budget_s);
  };
  return autotune(problem, current_tune_identity(), tune_candidates(st, p), measure, o);
}

}  // namespace ws
