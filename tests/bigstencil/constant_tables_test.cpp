// The kernels that keep their weights in __constant__ memory (KernelA, zsweep_box,
// compact_tiled) launched on two streams of one device: __constant__ memory is one per
// device, so a launch on the second stream must wait for the upload the first stream
// queued, not read the tables of the key before (sim/cuda/kernels/constant_tables.hpp).
// Two solvers' slabs of one GPU step this way (sim/decomp/decomposed_solver.cpp).
//
// The first stream is held back by a host callback, so its upload of the new weights is
// still queued when the second stream launches. Each output is compared bit for bit with
// the same launch made afterwards on a third stream with nothing pending; the two
// weights differ by a factor of 3.24, so a step with the old tables misses by far.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "bigstencil/test_stencils.hpp"
#include "common/gpu.hpp"
#include "core/field_layout.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernel_registry.hpp"
#include "wave/wave_solver.hpp"

namespace ws::testing {
namespace {

void CUDART_CB hold_stream(void*) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

// One step's two levels on the device, from the same random start every time.
struct Levels {
  DeviceBuffer<double> cur, next;
  Levels(const FieldLayout& L, cudaStream_t s) : cur(L.total), next(L.total) {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> uc(L.total, 0.0), un(L.total, 0.0);
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          uc[L.index(i, j, k)] = d(rng);
          un[L.index(i, j, k)] = d(rng);
        }
    CUDA_CHECK(cudaMemcpyAsync(cur.get(), uc.data(), L.bytes(sizeof(double)), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(next.get(), un.data(), L.bytes(sizeof(double)), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
  }
  std::vector<double> fetch(const FieldLayout& L, cudaStream_t s) const {
    std::vector<double> h(L.total);
    CUDA_CHECK(cudaMemcpyAsync(h.data(), next.get(), L.bytes(sizeof(double)), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return h;
  }
};

class ConstantTablesGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(ConstantTablesGpu, SecondStreamWaitsForTheUploadQueuedOnTheFirst) {
  WS_REQUIRE_GPU();
  const KernelVariant& v = KernelRegistry::instance().at(GetParam());
  const Stencil st = test_stencil("hand:ball5");
  ASSERT_TRUE(v.supports(st)) << v.id;
  ASSERT_TRUE(v.has_precision(Precision::Double)) << v.id;
  const FieldLayout L = make_layout(37, 29, 23, halo_for(st), sizeof(double));
  const double lambda2_old = std::pow(0.5 * st.courant_max, 2), lambda2_new = std::pow(0.9 * st.courant_max, 2);
  const LaunchOptions opt{preferred_block(v, st, Precision::Double), true};
  CudaStream first, second, third;
  Levels a(L, first.get()), b(L, second.get()), c(L, third.get());
  auto launch = [&](Levels& f, double lambda2, cudaStream_t s) {
    v.launch_double(StepArgs<double>{f.next.get(), f.cur.get(), L, &st, lambda2}, opt, s);
  };
  {
    Levels warm(L, third.get());  // the device now holds the old weights
    launch(warm, lambda2_old, third.get());
    CUDA_CHECK(cudaStreamSynchronize(third.get()));
  }
  CUDA_CHECK(cudaLaunchHostFunc(first.get(), hold_stream, nullptr));
  launch(a, lambda2_new, first.get());   // uploads the new weights behind the held callback
  launch(b, lambda2_new, second.get());  // must wait for that upload
  CUDA_CHECK(cudaDeviceSynchronize());
  launch(c, lambda2_new, third.get());  // nothing pending: the reference
  const std::vector<double> ref = c.fetch(L, third.get());
  const std::vector<double> got_first = a.fetch(L, first.get()), got_second = b.fetch(L, second.get());
  long long diff_first = 0, diff_second = 0;
  for (int64_t q = 0; q < L.total; ++q) {
    diff_first += got_first[q] != ref[q];
    diff_second += got_second[q] != ref[q];
  }
  EXPECT_EQ(diff_first, 0) << v.id << ": the stream that uploaded";
  EXPECT_EQ(diff_second, 0) << v.id << ": the second stream ran before the first stream's upload, on the old weights";
}

INSTANTIATE_TEST_SUITE_P(TableKernels, ConstantTablesGpu, ::testing::Values("kernelA", "zsweep_box", "compact_tiled"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace ws::testing
