#pragma once
// Auralization: a dry signal convolved, in real time, with the impulse
// response recorded at the receiver(s), so one hears a click, a chirp or a
// plucked string "in" the simulated room. Producer side: the session asks for
// device-rate blocks and writes them into the ring.
#include <memory>
#include <string>
#include <vector>

#include "dsp/dry_signals.hpp"
#include "dsp/partitioned_convolver.hpp"

namespace ws::audio {

class Auralizer {
 public:
  // The impulse response, one vector per receiver (1 or 2) at ir_rate_hz.
  void set_impulse_response(std::vector<std::vector<float>> ir, double ir_rate_hz);
  bool has_impulse_response() const { return !ir_.empty(); }
  const std::vector<std::vector<float>>& impulse_response() const { return ir_; }
  double impulse_response_rate_hz() const { return ir_rate_hz_; }
  double impulse_response_length_s() const;

  // A loaded recording as dry signal (mono at its own rate).
  void set_dry_recording(std::vector<float> mono, double rate_hz, std::string name);
  const std::string& dry_recording_name() const { return rec_name_; }
  void set_dry(const DryParams& p);
  const DryParams& dry() const { return dry_; }

  // Builds generator and convolvers for the device: IR resampled to
  // device_rate_hz, truncated to max_ir_s, scaled to unit energy (so the
  // loudness does not depend on the arbitrary pressure units of the solver).
  // Throws std::invalid_argument when there is nothing to convolve with.
  void prepare(double device_rate_hz, int out_channels, int block_frames, double max_ir_s = 10.0);
  bool ready() const { return !convolvers_.empty(); }
  int block_frames() const { return block_; }
  // One block of block_frames() interleaved output frames.
  void render_block(float* out);

 private:
  std::vector<std::vector<float>> ir_;
  double ir_rate_hz_ = 0.0;
  std::vector<float> rec_;
  double rec_rate_hz_ = 0.0;
  std::string rec_name_;
  DryParams dry_;
  double device_rate_hz_ = 0.0;
  int out_channels_ = 1, block_ = 256;
  std::unique_ptr<DryGenerator> gen_;
  std::vector<std::unique_ptr<PartitionedConvolver>> convolvers_;
  std::vector<float> dry_block_, wet_block_;
};

}  // namespace ws::audio
