// One launch of each kernel, called through the registry entry directly, on
// arrays poisoned so that every way of getting the update wrong shows:
//   u^n     interior random, halo 0 (the Dirichlet boundary), row padding NaN:
//           a kernel reading outside interior + halo picks up a NaN;
//   u_next  interior random (it holds u^{n-1}, which the in-place scheme reads,
//           so it cannot hold NaN), halo = a sentinel, row padding NaN:
//           after the launch every interior point must equal the reference (an
//           unwritten point still holds its random u^{n-1}) and the halo and the
//           padding must be bit-for-bit unchanged.
// Grid 53 x 71 x 37: not a multiple of any block, several blocks per axis.
// Each kernel runs with its default block and read-only loads, then with an
// odd block (24 x 5 x 2: partial warps, misaligned tiles) and plain loads, and
// with 30 x 4 x 1 (rows not a multiple of a 16-byte vector).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "bigstencil/cases.hpp"
#include "bigstencil/tolerance.hpp"
#include "common/gpu.hpp"
#include "core/field_layout.hpp"
#include "cuda/device_buffer.hpp"
#include "wave/wave_solver.hpp"

namespace ws::testing {
namespace {

constexpr double kSentinel = -4242.125;  // exactly representable in float and double

enum class Cell { Interior, Halo, Padding };

Cell classify(const FieldLayout& L, int64_t q) {
  const int64_t k = q / L.plane, rem = q % L.plane, j = rem / L.pitch, x = rem % L.pitch;
  const int64_t i = x - L.x0;  // interior coordinates, halo at -halo.. -1 and n..n+halo-1
  const int h = L.halo;
  if (i < -h || i >= L.nx + h) return Cell::Padding;
  const bool in_i = i >= 0 && i < L.nx, in_j = j >= h && j < L.ny + h, in_k = k >= h && k < L.nz + h;
  return in_i && in_j && in_k ? Cell::Interior : Cell::Halo;
}

template <class T>
void run_step_case(const KernelCase& c, const LaunchOptions& opt, double courant_fraction = 0.9) {
  const KernelVariant& v = KernelRegistry::instance().at(c.kernel);
  const Stencil st = test_stencil(c.stencil);
  const double lambda2 = std::pow(courant_fraction * st.courant_max, 2);
  const FieldLayout L = make_layout(53, 71, 37, halo_for(st), sizeof(T));
  std::mt19937_64 rng(1234 + st.size());
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> uc(L.total), un(L.total);
  for (int64_t q = 0; q < L.total; ++q) {
    switch (classify(L, q)) {
      case Cell::Interior: uc[q] = T(d(rng)); un[q] = T(d(rng)); break;
      case Cell::Halo: uc[q] = T(0); un[q] = T(kSentinel); break;
      case Cell::Padding: uc[q] = un[q] = std::numeric_limits<T>::quiet_NaN(); break;
    }
  }
  DeviceBuffer<T> duc(L.total), dun(L.total);
  // Every copy goes on the kernel's own stream. CudaStream is non-blocking, so it does
  // not wait for the legacy default stream, and a plain cudaMemcpy from pageable memory
  // may return before its DMA has landed: the kernel then read the tail of u^{n-1} from
  // the previous case's freed buffer (the first GPU run's "srl" failures, on Webb
  // kernels too). Stream order makes upload -> step -> download strictly sequential.
  CudaStream stream;
  CUDA_CHECK(cudaMemcpyAsync(duc.get(), uc.data(), L.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream.get()));
  CUDA_CHECK(cudaMemcpyAsync(dun.get(), un.data(), L.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream.get()));
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  StepArgs<T> args{dun.get(), duc.get(), L, &st, lambda2};
  if constexpr (std::is_same_v<T, float>) v.launch_float(args, opt, stream.get());
  else v.launch_double(args, opt, stream.get());
  std::vector<T> out(L.total);
  CUDA_CHECK(cudaMemcpyAsync(out.data(), dun.get(), L.bytes(sizeof(T)), cudaMemcpyDeviceToHost, stream.get()));
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));

  // Reference in double from the same (rounded) inputs.
  double max_ref = 0, max_err = 0;
  long long bad_halo = 0, bad_padding = 0, nan_interior = 0;
  for (int64_t q = 0; q < L.total; ++q) {
    const Cell cell = classify(L, q);
    if (cell == Cell::Halo) {
      if (out[q] != T(kSentinel)) ++bad_halo;
      continue;
    }
    if (cell == Cell::Padding) {
      if (!std::isnan((double)out[q])) ++bad_padding;
      continue;
    }
    double ref = -(double)un[q];
    for (const auto& p : st.points) {
      const int64_t o = (int64_t)p.dz * L.plane + (int64_t)p.dy * L.pitch + p.dx;
      const bool centre = p.dx == 0 && p.dy == 0 && p.dz == 0;
      ref += ((centre ? 2.0 : 0.0) + lambda2 * p.w) * (double)uc[q + o];
    }
    if (std::isnan((double)out[q])) ++nan_interior;
    max_ref = std::max(max_ref, std::abs(ref));
    max_err = std::max(max_err, std::abs((double)out[q] - ref));
  }
  const double tol = one_step_tolerance(precision_of<T>());
  EXPECT_EQ(nan_interior, 0) << "interior points are NaN (read outside interior + halo?)";
  EXPECT_EQ(bad_halo, 0) << "halo cells of u_next were written";
  EXPECT_EQ(bad_padding, 0) << "row padding of u_next was written";
  EXPECT_LE(max_err, tol * max_ref) << "max |gpu - ref| = " << max_err << ", max |ref| = " << max_ref
                                    << ", tolerance " << tol << " relative";
}

class KernelStep : public ::testing::TestWithParam<KernelCase> {};

TEST_P(KernelStep, OneStepMatchesReferenceAndLeavesHaloAlone) {
  WS_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const KernelVariant& v = KernelRegistry::instance().at(c.kernel);
  const BlockShape pref = preferred_block(v, test_stencil(c.stencil), c.precision);
  const LaunchOptions defaults{pref, true};
  const LaunchOptions odd{BlockShape{24, 5, v.block_uses_z ? 2 : 1}, false};
  // 30 wide: not a multiple of the 16-byte vector, for kernels with a vector-copy path.
  const LaunchOptions odd_unaligned{BlockShape{30, 4, 1}, true};
  std::vector<LaunchOptions> runs{defaults};
  if (v.block_for) {
    // A block per stencil (ztma_leggy's compiled-in width, temporal_2step's grown tile):
    // odd heights (partial warps, partial tiles at the grid's edge) and a single row,
    // those of them the kernel accepts for this stencil (temporal_2step needs 2R + 1 rows).
    if (v.block_error) EXPECT_EQ(v.block_error(test_stencil(c.stencil), c.precision, pref), "");
    for (const LaunchOptions& o : {LaunchOptions{BlockShape{pref.x, 5, 1}, false}, LaunchOptions{BlockShape{pref.x, 7, 1}, true},
                                   LaunchOptions{BlockShape{pref.x, 1, 1}, true}})
      if (!v.block_error || v.block_error(test_stencil(c.stencil), c.precision, o.block).empty()) runs.push_back(o);
  }
  if (is_bigstencil_kernel(c.kernel)) {
    // Other families may restrict their blocks (e.g. halo-thread rims): the odd blocks are
    // tried on the large-stencil kernels, those of them the kernel's block_error accepts.
    for (const LaunchOptions& o : {odd, odd_unaligned})
      if (!v.block_error || v.block_error(test_stencil(c.stencil), c.precision, o.block).empty()) runs.push_back(o);
  }
  for (const LaunchOptions& opt : runs) {
    SCOPED_TRACE("block " + std::to_string(opt.block.x) + "x" + std::to_string(opt.block.y) + "x" +
                 std::to_string(opt.block.z) + (opt.readonly_cache ? ", read-only loads" : ", plain loads"));
    if (c.precision == Precision::Float) run_step_case<float>(c, opt);
    else run_step_case<double>(c, opt);
  }
}

// KernelA, compact_tiled and zsweep_box keep their weights in __constant__ tables
// uploaded only when (stencil, lambda, layout) change: switching back and forth
// must re-upload.
TEST(ConstantTables, FollowStencilAndCourantChanges) {
  WS_REQUIRE_GPU();
  for (const char* id : {"kernelA", "compact_tiled", "zsweep_box"}) {
    const LaunchOptions opt{KernelRegistry::instance().at(id).default_block, true};
    for (const auto& [stencil, fraction] : {std::make_pair("hand:ball5", 0.9), std::make_pair("hand:box27", 0.9),
                                            std::make_pair("hand:ball5", 0.5), std::make_pair("hand:ball5", 0.5)}) {
      SCOPED_TRACE(std::string(id) + " " + stencil + " at " + std::to_string(fraction) + " of the limit");
      run_step_case<double>({id, stencil, Precision::Double}, opt, fraction);
      run_step_case<float>({id, stencil, Precision::Float}, opt, fraction);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelStep, ::testing::ValuesIn(kernel_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& i) { return case_name(i.param); });

}  // namespace
}  // namespace ws::testing
