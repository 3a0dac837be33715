#include "core/sample_stream.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ws {

void SampleStream::read(long long first, size_t count, float* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Indices below 0 are silence before the stream starts.
  while (count > 0 && first < 0) {
    *out++ = 0.0f;
    ++first;
    --count;
  }
  if (count == 0) return;
  if (first < kept_first_) {  // before the history: produce again from the start
    restart();
    kept_first_ = 0;
    kept_.clear();
  }
  const long long end = first + (long long)count;
  // Drops the samples before keep_from once that frees more than kKeep (erasing the
  // front moves the rest, so it is done in large steps only).
  auto trim = [&](long long keep_from) {
    const long long drop = keep_from - kept_first_;
    if (drop <= (long long)kKeep) return;
    kept_.erase(kept_.begin(), kept_.begin() + drop);
    kept_first_ += drop;
  };
  auto newest = [&] { return kept_first_ + (long long)kept_.size(); };
  while (newest() < end) {
    const size_t block = (size_t)std::min<long long>(end - newest(), 1 << 14);
    const size_t at = kept_.size();
    kept_.resize(at + block);
    produce(kept_.data() + at, block);
    trim(std::min(first, newest() - (long long)kKeep));
  }
  std::copy_n(kept_.begin() + (first - kept_first_), count, out);
  trim(newest() - (long long)kKeep);
}

void BufferSampleStream::produce(float* out, size_t count) {
  for (size_t i = 0; i < count; ++i, ++pos_) out[i] = pos_ < samples_.size() ? samples_[pos_] : 0.0f;
}

long long sampled_start_step(const SourceSignal& s, double dt_s) {
  // The first n with n T >= delay (a relative margin keeps a delay of exactly k T on step k).
  return s.delay_s > 0.0 ? (long long)std::ceil(s.delay_s / dt_s * (1.0 - 1e-12)) : 0;
}

double sampled_end_s(const SourceSignal& s, const SampleStream& stream, double dt_s) {
  const long long n = stream.length();
  if (n < 0) return -1.0;
  return (double)(sampled_start_step(s, dt_s) + n + 1) * dt_s;
}

int SampleWindows::window_steps() {
  static const int steps = [] {
    const char* e = std::getenv("WS_TEST_SAMPLE_WINDOW_STEPS");
    const int n = e ? std::atoi(e) : 0;
    return n >= 16 && n <= 4096 ? n : 4096;
  }();
  return steps;
}

int SampleWindows::track(const std::shared_ptr<SampleStream>& stream, long long start_step) {
  for (size_t t = 0; t < tracks_.size(); ++t)
    if (tracks_[t].stream == stream && tracks_[t].start_step == start_step) return (int)t;
  tracks_.push_back({stream, start_step});
  return (int)tracks_.size() - 1;
}

void SampleWindows::fill(long long first, float* out) const {
  for (size_t t = 0; t < tracks_.size(); ++t)
    tracks_[t].stream->read(first - 1 - tracks_[t].start_step, stride(), out + t * stride());
}

}  // namespace ws
