// One update by every 7-point variant x precision x cache mode, launched
// directly, checked point by point:
//  - every interior point holds (2u^n - u^{n-1}) + c1 (S - 6u^n), to rounding
//    (and u^{n-1} was chosen so that this differs from it by >= 0.5: an
//    unwritten point fails);
//  - every non-interior element of the output (the fixed-boundary halo ring and
//    the row/plane padding) still holds its NaN sentinel bit for bit;
//  - u^n is unchanged, and its padding beyond the halo ring is NaN, so a kernel
//    that reads outside the ring turns an interior point into NaN.
// Sizes are not multiples of the block, include point-thick slabs, and the
// variants of this family are also run with non-default blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "common/gpu.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernels/seven_point.hpp"
#include "kernels/kernel_cases.hpp"
#include "wave/wave_solver.hpp"

namespace ws {
namespace {

using testing::KernelCase;

enum class Cell { Interior, Ring, Pad };

Cell classify(const FieldLayout& L, int64_t q) {
  const int64_t kk = q / L.plane, r = q % L.plane;
  const int64_t jj = r / L.pitch, xx = r % L.pitch;
  const int64_t i = xx - L.x0, j = jj - L.halo, k = kk - L.halo;
  const bool in_x = i >= 0 && i < L.nx, in_y = j >= 0 && j < L.ny, in_z = k >= 0 && k < L.nz;
  if (in_x && in_y && in_z) return Cell::Interior;
  const int h = L.halo;
  if (i >= -h && i < L.nx + h && j >= -h && j < L.ny + h && k >= -h && k < L.nz + h) return Cell::Ring;
  return Cell::Pad;
}

template <class T> T sentinel();
template <> float sentinel<float>() {
  const uint32_t bits = 0x7fc0beefu;  // a quiet NaN with a payload no arithmetic produces
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
template <> double sentinel<double>() {
  const uint64_t bits = 0x7ff8000000beef01ull;
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
template <class T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <class T>
void check_one_step(const KernelVariant& v, bool ro, BlockShape block, int nx, int ny, int nz) {
  SCOPED_TRACE(::testing::Message() << v.id << " " << (sizeof(T) == 4 ? "float" : "double") << (ro ? " ro" : " plain")
                                    << " block " << block.x << "x" << block.y << "x" << block.z << " grid " << nx
                                    << "x" << ny << "x" << nz);
  const Stencil st = make_stencil("7pt");
  const FieldLayout L = make_layout(nx, ny, nz, halo_for(st), sizeof(T));
  const double courant = 0.5;  // below the limit: 2 - 6 lambda^2 = 0.5, the centre's share is not ~0
  StepArgs<T> args{nullptr, nullptr, L, &st, courant * courant};
  const auto co = seven_point_coeffs(args);

  std::vector<Cell> cell(L.total);
  for (int64_t q = 0; q < L.total; ++q) cell[q] = classify(L, q);
  std::mt19937_64 rng(1234 + nx * 7 + ny * 13 + nz);
  std::uniform_real_distribution<double> uni(-1.0, 1.0), mag(0.25, 1.0);
  std::vector<T> uc(L.total), un(L.total);
  for (int64_t q = 0; q < L.total; ++q)
    uc[q] = cell[q] == Cell::Interior ? T(uni(rng)) : cell[q] == Cell::Ring ? T(0) : std::numeric_limits<T>::quiet_NaN();
  std::vector<double> expected(L.total, 0.0);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const double s = (double)uc[q - 1] + uc[q + 1] + uc[q - L.pitch] + uc[q + L.pitch] + uc[q - L.plane] +
                         uc[q + L.plane];
        const double a = 2.0 * uc[q] + (double)co.neighbour * (s - 6.0 * uc[q]);
        // u^{n-1} = a/2 + d with |d| >= 1/4: the new value a - u^{n-1} = a/2 - d is >= 0.5 away from it.
        const double d = (rng() & 1 ? 1.0 : -1.0) * mag(rng);
        un[q] = T(0.5 * a + d);
        expected[q] = a - (double)un[q];
      }
  for (int64_t q = 0; q < L.total; ++q)
    if (cell[q] != Cell::Interior) un[q] = sentinel<T>();

  DeviceBuffer<T> d_uc(L.total), d_un(L.total);
  copy_to_device(d_uc.get(), uc.data(), d_uc.bytes());
  copy_to_device(d_un.get(), un.data(), d_un.bytes());
  args.u_next = d_un.get();
  args.u_cur = d_uc.get();
  LaunchOptions o;
  o.block = block;
  o.readonly_cache = ro;
  CudaStream stream;
  if constexpr (sizeof(T) == 4) v.launch_float(args, o, stream.get());
  else v.launch_double(args, o, stream.get());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  std::vector<T> out(L.total), uc_after(L.total);
  CUDA_CHECK(cudaMemcpy(out.data(), d_un.get(), d_un.bytes(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(uc_after.data(), d_uc.get(), d_uc.bytes(), cudaMemcpyDeviceToHost));

  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;  // |values| <= ~4: a few ulps of float or double
  int64_t wrong = 0, touched = 0, uc_changed = 0;
  std::ostringstream first;
  for (int64_t q = 0; q < L.total; ++q) {
    if (!same_bits(uc_after[q], uc[q])) ++uc_changed;
    if (cell[q] == Cell::Interior) {
      const double got = (double)out[q];
      if (!(std::abs(got - expected[q]) <= tol * (1.0 + std::abs(expected[q])))) {
        if (wrong++ == 0) first << "interior element " << q << ": got " << got << ", expected " << expected[q];
      }
    } else if (!same_bits(out[q], sentinel<T>())) {
      if (touched++ == 0)
        first << " non-interior element " << q << (cell[q] == Cell::Ring ? " (halo ring)" : " (padding)")
              << " was written: " << (double)out[q];
    }
  }
  EXPECT_EQ(wrong, 0) << "interior points wrong or not written; " << first.str();
  EXPECT_EQ(touched, 0) << "halo/padding of the output written; " << first.str();
  EXPECT_EQ(uc_changed, 0) << "u^n was modified";
}

class SingleStep : public ::testing::TestWithParam<KernelCase> {};

TEST_P(SingleStep, EveryInteriorPointWrittenHaloUntouched) {
  WS_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const KernelVariant& v = KernelRegistry::instance().at(c.id);
  std::vector<BlockShape> blocks{v.default_block};
  for (const auto& b : testing::alternate_blocks(v)) blocks.push_back(b);
  for (const auto& s : testing::test_sizes())
    for (const auto& b : blocks) {
      if (!testing::grid_refusal(v, c.precision, s.nx, s.ny, s.nz).empty()) continue;
      if (c.precision == Precision::Float) check_one_step<float>(v, c.readonly_cache, b, s.nx, s.ny, s.nz);
      else check_one_step<double>(v, c.readonly_cache, b, s.nx, s.ny, s.nz);
      if (HasFailure()) return;  // one clear failure per case, not hundreds
    }
}

INSTANTIATE_TEST_SUITE_P(AllSevenPoint, SingleStep, ::testing::ValuesIn(testing::seven_point_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& i) { return testing::case_name(i.param); });

TEST(HaloThreads, RejectsBlocksWithoutARim) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const FieldLayout L = make_layout(8, 8, 8, 1, 4);
  DeviceBuffer<float> a(L.total), b(L.total);
  StepArgs<float> args{a.get(), b.get(), L, &st, 0.25};
  LaunchOptions o;
  o.block = {2, 8, 1};
  EXPECT_THROW(KernelRegistry::instance().at("halo_threads").launch_float(args, o, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace ws
