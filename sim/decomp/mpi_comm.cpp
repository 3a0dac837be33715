#include "decomp/mpi_comm.hpp"

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef WS_HAVE_MPI
// The C API only: the deprecated C++ bindings add nothing and warn.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif
#endif

namespace ws {

bool launched_by_mpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

#ifdef WS_HAVE_MPI

bool mpi_available() { return true; }

namespace {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw std::runtime_error(std::string("MPI error in ") + what + ": " + std::string(msg, len));
}

int count_of(size_t bytes) {
  if (bytes > (size_t)INT_MAX)
    throw std::invalid_argument("a halo message of " + std::to_string(bytes) +
                                " bytes exceeds MPI's int count; use more slabs or a smaller xy plane");
  return (int)bytes;
}

class MpiComm final : public SlabComm {
 public:
  MpiComm() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // Compiled with CUDA support and confirmed at run time (the library may differ from
  // the headers'); Debian's Open MPI has none, so halos are staged through the host.
  bool device_buffers() const override {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
  }

  void post_send(int to, int tag, const void* data, size_t bytes) override {
    requests_.emplace_back();
    check(MPI_Isend(data, count_of(bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD, &requests_.back()), "MPI_Isend");
  }
  void post_recv(int from, int tag, void* data, size_t bytes) override {
    requests_.emplace_back();
    check(MPI_Irecv(data, count_of(bytes), MPI_BYTE, from, tag, MPI_COMM_WORLD, &requests_.back()), "MPI_Irecv");
  }
  void progress() override {
    if (requests_.empty()) return;
    int done = 0;  // completed requests become MPI_REQUEST_NULL, which wait_all() then skips
    check(MPI_Testall((int)requests_.size(), requests_.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
  }
  void wait_all() override {
    if (requests_.empty()) return;
    check(MPI_Waitall((int)requests_.size(), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    requests_.clear();
  }

  std::vector<double> allgather(const std::vector<double>& mine) override {
    const int n = count_of(mine.size());
    std::vector<int> counts(size_), displs(size_);
    check(MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
    long long total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[r] = count_of((size_t)total);
      total += counts[r];
    }
    std::vector<double> all((size_t)total);
    check(MPI_Allgatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                         MPI_COMM_WORLD),
          "MPI_Allgatherv");
    return all;
  }

  void allreduce_stats(double& sum, double& peak, bool& all) override {
    check(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    check(MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    int a = all ? 1 : 0;
    check(MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
    all = a != 0;
  }

  bool any(bool flag) override {
    int f = flag ? 1 : 0;
    check(MPI_Allreduce(MPI_IN_PLACE, &f, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
    return f != 0;
  }

 private:
  int rank_ = 0, size_ = 1;
  std::vector<MPI_Request> requests_;
};

}  // namespace

MpiSession::MpiSession() {
  int ready = 0;
  MPI_Initialized(&ready);
  // Funnelled: the decomposed solver drives its GPUs from worker threads, but only the
  // main thread calls MPI.
  int provided = 0;
  if (!ready) check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes and become exceptions with MPI's message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  comm_ = std::make_unique<MpiComm>();
}

MpiSession::~MpiSession() {
  comm_.reset();
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

#else

bool mpi_available() { return false; }

MpiSession::MpiSession() {
  throw std::runtime_error("this wavescope was built without MPI (install libopenmpi-dev and reconfigure)");
}
MpiSession::~MpiSession() = default;

#endif

}  // namespace ws
