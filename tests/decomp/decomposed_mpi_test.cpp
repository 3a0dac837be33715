// Run under mpirun (ctest starts it with 2 and with 3 ranks): one slab per rank (and
// two, so that local and remote cuts meet), with and without the overlap split,
// against the undecomposed CPU solver that every rank also runs. Receivers and the
// gathered field agree bit for bit on every rank. Only EXPECTs after the first
// collective call, so a failure on one rank cannot leave the others waiting.
#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "core/cuda_check.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"
#include "decomp/decomp_cases.hpp"
#include "decomp/slice_check.hpp"
#include "decomp/decomposed_solver.hpp"
#include "decomp/mpi_comm.hpp"
#include "decomp/remote_halos.hpp"
#include "cuda/device_buffer.hpp"

namespace ws::test {
namespace {

MpiSession* g_mpi = nullptr;

// On ranks other than 0: only the failures, with the rank.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?", r.line_number(),
                   r.summary());
  }

 private:
  int rank_;
};

SolverFactory rank_factory(int per_rank, bool overlap) {
  return [=](Precision p, const Stencil& st, int nx, int ny, int nz, double courant, double dt) {
    DecompOptions o;
    o.slabs_per_process = per_rank;
    o.comm = &g_mpi->comm();
    o.overlap = overlap;
    return make_decomposed_solver(o, p, st, nx, ny, nz, courant, dt);
  };
}

class DecomposedMpi : public ::testing::TestWithParam<DecompCase> {};

TEST_P(DecomposedMpi, RanksMatchOneGridBitForBit) {
  const DecompCase& c = GetParam();
  const CaseResult ref = run_case(c, make_cpu_solver);
  EXPECT_GT(peak_of(ref), 1e-6);
  const int ranks = g_mpi->size();
  const int most = max_slabs(c.nz, halo_for(make_stencil(c.stencil)));
  for (int per : {1, 2}) {
    if (per * ranks > most) continue;  // the same on every rank
    for (bool overlap : {true, false}) {
      SCOPED_TRACE("rank " + std::to_string(g_mpi->rank()) + " of " + std::to_string(ranks) + ", " +
                   std::to_string(per) + " slab(s) per rank, overlap " + (overlap ? "on" : "off"));
      const CaseResult got = run_case(c, rank_factory(per, overlap));
      EXPECT_EQ(got.step, ref.step);
      EXPECT_EQ(got.receivers.size(), ref.receivers.size());
      for (size_t r = 0; r < ref.receivers.size() && r < got.receivers.size(); ++r)
        EXPECT_EQ(got.receivers[r], ref.receivers[r]) << "receiver " << r;
      EXPECT_TRUE(got.u_cur == ref.u_cur) << "u^n differs";
      EXPECT_TRUE(got.u_prev == ref.u_prev) << "u^{n-1} differs";
    }
  }
}

// GPU ranks (each rank's slabs on device rank % count) against one GPU with the same
// kernel, bit for bit: the edge slabs' updates queued beside the inner ones, their planes
// copied device to device into the other rank's mailbox (CUDA IPC: the ranks share this
// host) or staged through host messages (--mpi-halos host), the received ones queued onto
// the devices. Skips on every rank alike where no GPU is usable (CI).
TEST_P(DecomposedMpi, GpuRanksMatchOneGpuBitForBit) {
  WS_REQUIRE_GPU();
  const DecompCase& c = GetParam();
  const Stencil st = make_stencil(c.stencil);
  const std::string kernel = slab_kernel(st, c.precision, "", true);
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  const int device = g_mpi->rank() % count;
  const CaseResult ref = run_case(c, [&](Precision p, const Stencil& s, int nx, int ny, int nz, double courant,
                                         double dt) {
    CUDA_CHECK(cudaSetDevice(0));
    return std::unique_ptr<WaveSolver>(make_cuda_solver(p, s, nx, ny, nz, courant, dt, kernel));
  });
  EXPECT_GT(peak_of(ref), 1e-6);
  const int ranks = g_mpi->size();
  const int most = max_slabs(c.nz, halo_for(st));
  for (int per : {1, 2}) {
    if (per * ranks > most) continue;
    for (bool overlap : {true, false})
    for (bool device_halos : {true, false}) {
      SCOPED_TRACE("rank " + std::to_string(g_mpi->rank()) + " of " + std::to_string(ranks) + " on GPU " +
                   std::to_string(device) + ", " + std::to_string(per) + " slab(s) per rank, overlap " +
                   (overlap ? "on" : "off") + ", kernel " + kernel + ", halos " + (device_halos ? "device" : "host"));
      std::string path;
      const CaseResult got = run_case(c, [&](Precision p, const Stencil& s, int nx, int ny, int nz, double courant,
                                             double dt) {
        DecompOptions o;
        o.slabs_per_process = per;
        o.devices.assign(per, device);
        o.kernel_id = kernel;
        o.comm = &g_mpi->comm();
        o.overlap = overlap;
        o.mpi_device_halos = device_halos;
        auto solver = make_decomposed_solver(o, p, s, nx, ny, nz, courant, dt);
        path = decomp_probe(*solver)->remote_halo_path();
        return solver;
      });
      EXPECT_EQ(path, device_halos ? "device" : "host: host halos asked for");
      EXPECT_EQ(got.step, ref.step);
      EXPECT_EQ(got.receivers.size(), ref.receivers.size());
      for (size_t r = 0; r < ref.receivers.size() && r < got.receivers.size(); ++r)
        EXPECT_EQ(got.receivers[r], ref.receivers[r]) << "receiver " << r;
      EXPECT_TRUE(got.u_cur == ref.u_cur) << "u^n differs";
      EXPECT_TRUE(got.u_prev == ref.u_prev) << "u^{n-1} differs";
    }
  }
}

// CPU ranks send their planes as messages, and say why: with device halos asked for (a
// slab on the CPU) and without.
TEST(DecomposedMpi, CpuRanksSendTheirHalosAsMessages) {
  const Stencil st = make_stencil("7pt");
  for (bool device_halos : {true, false}) {
    DecompOptions o;
    o.comm = &g_mpi->comm();
    o.mpi_device_halos = device_halos;
    auto s = make_decomposed_solver(o, Precision::Float, st, 9, 8, 4 * g_mpi->size(), st.courant_max, 1e-5);
    DecompProbe* p = decomp_probe(*s);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->remote_halo_path(), device_halos ? "host: a slab on the CPU" : "host: host halos asked for");
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, DecomposedMpi, ::testing::ValuesIn(decomp_cases()),
                         [](const auto& info) { return info.param.name; });

// One cut between ranks 0 (below) and 1 (above) on their GPUs, through RemoteHalos
// itself: each side's opener either maps the peer's mailbox (IpcMapping::open) or refuses
// it, as a driver without IPC between two processes would. Where either side refuses,
// both must take the host path and say why (the side that mapped closes its mapping
// before the other frees the mailbox), and every exchange (both parities of the mailbox)
// must deliver the peer's edge planes. Ranks past 1 have no cut and return at once.
TEST(DecomposedMpi, OneSideRefusingIpcKeepsBothSidesOnOnePath) {
  WS_REQUIRE_GPU();
  const int rank = g_mpi->rank();
  if (rank > 1) return;
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  const int device = rank % count;
  CUDA_CHECK(cudaSetDevice(device));
  const FieldLayout L = make_layout(13, 7, 5, 1, 4);
  const size_t bytes = halo_bytes(L, Precision::Float);
  DeviceBuffer<float> field(L.total);
  const auto field_of = [&](int) { return SlabField{field.get(), L, device, 4}; };
  const RemoteHalos::IpcOpener refuse = [](const cudaIpcMemHandle_t&, int, std::string& why) {
    why = "refused by the test";
    return IpcMapping();
  };
  struct Case {
    bool refuse0, refuse1;
    const char *path0, *path1;
  };
  const Case cases[] = {
      {false, false, "device", "device"},
      {false, true, "host: rank 1 could not map this side's mailbox", "host: CUDA IPC refused (refused by the test)"},
      {true, false, "host: CUDA IPC refused (refused by the test)", "host: rank 0 could not map this side's mailbox"},
      {true, true, "host: CUDA IPC refused (refused by the test)", "host: CUDA IPC refused (refused by the test)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("rank " + std::to_string(rank) + ", rank 0 " + (c.refuse0 ? "refuses" : "maps") + ", rank 1 " +
                 (c.refuse1 ? "refuses" : "maps"));
    RemoteHalos halos(&g_mpi->comm(), bytes);
    halos.add(0, device, /*up=*/rank == 0, /*peer=*/1 - rank, /*tag=*/41);
    if (rank == 0 ? c.refuse0 : c.refuse1) halos.set_ipc_opener(refuse);
    halos.connect(true);
    EXPECT_EQ(halos.path(), rank == 0 ? c.path0 : c.path1);
    for (int exchange = 0; exchange < 3; ++exchange) {
      // Every value names its rank, exchange and place, so a plane from the wrong rank,
      // exchange (mailbox half) or offset shows.
      std::vector<float> host(L.total);
      for (int64_t q = 0; q < L.total; ++q) host[q] = (float)(rank * 1000000 + exchange * 100000 + q);
      CUDA_CHECK(cudaMemcpy(field.get(), host.data(), L.total * sizeof(float), cudaMemcpyHostToDevice));
      halos.post(field_of);
      halos.finish(field_of);
      CUDA_CHECK(cudaMemcpy(host.data(), field.get(), L.total * sizeof(float), cudaMemcpyDeviceToHost));
      const SlabField f = field_of(0);
      // The halo received holds the peer's edge planes: rank 0's top halo rank 1's
      // bottom planes (interior plane 0), rank 1's bottom halo rank 0's top ones.
      const int64_t halo_at = ((char*)(rank == 0 ? f.halo_above() : f.halo_below()) - (char*)f.data) / 4;
      const int64_t peer_edge_at = ((char*)(rank == 0 ? f.bottom_planes() : f.top_planes()) - (char*)f.data) / 4;
      int64_t wrong = 0;
      for (int64_t q = 0; q < L.halo * L.plane; ++q)
        wrong += host[halo_at + q] != (float)((1 - rank) * 1000000 + exchange * 100000 + peer_edge_at + q);
      EXPECT_EQ(wrong, 0) << "exchange " << exchange;
    }
  }
}

TEST(DecomposedMpi, FieldStatsAgreeOnEveryRank) {
  const DecompCase c = decomp_cases()[4];
  const Stencil st = make_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max;
  auto one = make_cpu_solver(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  auto many = rank_factory(1, true)(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  for (auto* s : {one.get(), many.get()}) {
    s->set_boundary(make_boundary_plan(s->layout(), c.walls, case_solids(c), courant));
    s->set_sources(case_sources(1e-5));
    s->advance(30);
  }
  const FieldStats a = one->field_stats(), b = many->field_stats();
  EXPECT_EQ(a.peak, b.peak);
  EXPECT_TRUE(b.finite);
  EXPECT_NEAR(a.mean, b.mean, 1e-9 * a.peak);
  EXPECT_FALSE(g_mpi->comm().any(false));
  EXPECT_TRUE(g_mpi->comm().any(g_mpi->rank() == g_mpi->size() - 1));
}

// The display's slices over ranks: every rank gets the three slices of the whole grid.
TEST(DecomposedMpi, SliceFieldHoldsTheThreeSlicesOnEveryRank) {
  const DecompCase c = decomp_cases()[5];
  const CaseResult ref = run_case(c, make_cpu_solver);
  const Stencil st = make_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max;
  auto many = rank_factory(2, true)(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  many->write_state(ref.u_cur, ref.u_prev, ref.step);
  for (int k : {0, c.nz / 2, c.nz - 1})
    EXPECT_EQ(slice_mismatches(*many, ref.u_cur, c.nx / 3, c.ny / 2, k), 0) << "k = " << k;
}

TEST(DecomposedMpi, RefusesMoreRanksThanPlanes) {
  const int ranks = g_mpi->size();
  DecompOptions o;
  o.comm = &g_mpi->comm();
  try {
    make_decomposed_solver(o, Precision::Float, make_stencil("7pt"), 8, 8, ranks - 1, 0.5, 1e-5);
    ADD_FAILURE() << "a grid of " << ranks - 1 << " planes on " << ranks << " ranks must be refused";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(std::to_string(ranks) + " MPI ranks are too many"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace ws::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ws::MpiSession mpi;
  ws::test::g_mpi = &mpi;
  if (mpi.size() < 2) std::fprintf(stderr, "decomp_mpi_tests: run under mpirun with 2 or more ranks\n");
  if (mpi.rank() != 0) {  // one report; the other ranks' failures still set their exit status
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new ws::test::FailurePrinter(mpi.rank()));
  }
  const int rc = RUN_ALL_TESTS();
  return rc;
}
