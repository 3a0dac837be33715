// The sediment benchmark's records on a small grid: every kernel plus the
// whole step, consistent units, a plausible roofline fraction.
#include <gtest/gtest.h>

#include "bench/sediment_bench.hpp"
#include "common/gpu.hpp"

namespace ws {
namespace {

TEST(SedimentBenchGpu, RecordsEveryKernelAndTheStep) {
  WS_REQUIRE_GPU();
  bench::SedimentBenchOptions o;
  o.size = 515;  // odd, not a multiple of any tile
  o.launches = 3;
  o.reps = 3;
  o.warmup = 1;
  for (Precision p : {Precision::Double, Precision::Float}) {
    o.precision = p;
    const auto recs = bench::run_sediment_bench(o);
    ASSERT_EQ(recs.size(), 9u);  // 8 kernels + the step
    for (const auto& r : recs) {
      SCOPED_TRACE(r.variant);
      EXPECT_EQ(r.benchmark, "sediment");
      EXPECT_EQ(r.precision, to_string(p));
      EXPECT_EQ(r.nx, 515);
      EXPECT_GT(r.gpoints_per_s, 0.0);
      EXPECT_GT(r.copy_gbs, 0.0);
      const double bpp = (r.variant.rfind("step", 0) == 0 ? 10.0 : 5.0) * bytes_of(p);
      EXPECT_DOUBLE_EQ(r.bytes_per_point, bpp);
      EXPECT_NEAR(r.roofline_fraction, r.gpoints_per_s * bpp / r.copy_gbs, 1e-12);
      // 515^2 cells fit in L2, so the fraction may pass 1; 3 would mean a wrong byte count or timing.
      EXPECT_LT(r.roofline_fraction, 3.0);
      const int flops = r.extra.at("flops_per_point_paper").get<int>();
      EXPECT_NEAR(r.extra.at("gflops_paper_count").get<double>(), r.gpoints_per_s * flops, 1e-9 * flops);
    }
  }
  o.kernels = {"h-opt3"};
  EXPECT_EQ(bench::run_sediment_bench(o).size(), 1u);
  o.kernels = {"h-fastest"};
  EXPECT_THROW(bench::run_sediment_bench(o), std::invalid_argument);
}

}  // namespace
}  // namespace ws
