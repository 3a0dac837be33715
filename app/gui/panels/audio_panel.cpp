#include "gui/panels/audio_panel.hpp"

#include "gui/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::gui {

namespace {
using namespace ws::audio;

const int kRates[] = {22050, 32000, 44100, 48000, 88200, 96000, 192000};
const int kBuffers[] = {0, 64, 128, 256, 512, 1024, 2048};
const ResampleQuality kQualities[] = {ResampleQuality::Best, ResampleQuality::Medium, ResampleQuality::Fastest,
                                      ResampleQuality::Linear, ResampleQuality::ZeroOrderHold};

float to_dbfs(float linear) { return linear > 1e-6f ? 20.0f * std::log10(linear) : -120.0f; }

void receiver_combo(const char* label, int& index, const std::vector<std::string>& names) {
  const std::string current = index >= 0 && index < (int)names.size() ? names[index] : "(none)";
  if (ImGui::BeginCombo(label, current.c_str())) {
    for (int i = 0; i < (int)names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == index)) index = i;
    ImGui::EndCombo();
  }
}

void device_section(AudioSession& s, AudioPanelState& st, const std::vector<std::string>& receivers) {
  if (!s.is_open() && ImGui::SmallButton("Rescan devices")) {
    s.rescan_devices();
    st.devices_listed = false;
  }
  if (!st.devices_listed) {
    st.devices = s.devices();
    st.devices_listed = true;
  }
  AudioSettings& p = st.pending;
  std::string current = "default output";
  for (const auto& d : st.devices)
    if (d.index == p.device) current = d.name + " (" + d.host_api + ")";
  if (ImGui::BeginCombo("device", current.c_str())) {
    if (ImGui::Selectable("default output", p.device < 0)) p.device = -1;
    for (const auto& d : st.devices) {
      const std::string label = d.name + " (" + d.host_api + ")##" + std::to_string(d.index);
      if (ImGui::Selectable(label.c_str(), d.index == p.device)) p.device = d.index;
    }
    ImGui::EndCombo();
  }
  if (st.devices.empty()) ImGui::TextDisabled("no output devices found");
  if (ImGui::BeginCombo("rate", (std::to_string((int)p.device_rate_hz) + " Hz").c_str())) {
    for (int r : kRates)
      if (ImGui::Selectable((std::to_string(r) + " Hz").c_str(), r == (int)p.device_rate_hz)) p.device_rate_hz = r;
    ImGui::EndCombo();
  }
  const std::string buf = p.frames_per_buffer > 0 ? std::to_string(p.frames_per_buffer) + " frames" : "auto";
  if (ImGui::BeginCombo("buffer", buf.c_str())) {
    for (int b : kBuffers)
      if (ImGui::Selectable(b ? (std::to_string(b) + " frames").c_str() : "auto", b == p.frames_per_buffer))
        p.frames_per_buffer = b;
    ImGui::EndCombo();
  }
  if (ImGui::BeginCombo("resampler", resample_quality_name(p.quality))) {
    for (auto q : kQualities)
      if (ImGui::Selectable(resample_quality_name(q), q == p.quality)) p.quality = q;
    ImGui::EndCombo();
  }
  float target_ms = (float)(p.target_fill_s * 1000.0);
  if (ImGui::SliderFloat("target latency", &target_ms, 20.0f, 500.0f, "%.0f ms")) p.target_fill_s = target_ms / 1000.0;
  ImGui::Checkbox("stereo (two receivers as ears)", &p.stereo);
  receiver_combo(p.stereo ? "left ear" : "receiver", p.left_receiver, receivers);
  if (p.stereo) receiver_combo("right ear", p.right_receiver, receivers);
  if (ImGui::Button(s.is_open() ? "Reopen" : "Open")) s.open(p);
  if (s.is_open()) {
    ImGui::SameLine();
    if (ImGui::Button("Close")) s.close();
  }
  if (s.faulted()) ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.3f, 1.0f), "%s", s.status().c_str());
  else ImGui::TextWrapped("%s", s.status().c_str());
}

void playback_section(AudioSession& s) {
  int src = s.source() == AudioSource::Receiver ? 0 : 1;
  if (ImGui::RadioButton("receiver", &src, 0)) s.set_source(AudioSource::Receiver);
  ImGui::SameLine();
  if (ImGui::RadioButton("auralization", &src, 1)) s.set_source(AudioSource::Auralization);
  bool rt = s.realtime();
  if (ImGui::Checkbox("real time (pace the solver to the audio clock)", &rt)) s.set_realtime(rt);
  int pol = s.slow_policy() == SlowPolicy::Gaps ? 0 : 1;
  ImGui::TextUnformatted("when slower than real time:");
  if (ImGui::RadioButton("gaps", &pol, 0)) s.set_slow_policy(SlowPolicy::Gaps);
  ImGui::SameLine();
  if (ImGui::RadioButton("slow motion", &pol, 1)) s.set_slow_policy(SlowPolicy::SlowMotion);
  float gain = (float)s.gain_db();
  if (ImGui::SliderFloat("gain", &gain, -60.0f, 80.0f, "%.1f dB")) s.set_gain_db(gain);
  ImGui::SameLine();
  if (ImGui::SmallButton("auto")) s.auto_gain();
  bool mute = s.muted();
  if (ImGui::Checkbox("mute", &mute)) s.set_mute(mute);

  const AudioStats a = s.stats();
  ImGui::Text("real-time factor %.3f   playback speed %.3f", a.real_time_factor, a.playback_speed);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "ring %.0f / %.0f ms", a.ring_fill_s * 1000, a.ring_target_s * 1000);
  ImGui::ProgressBar(a.ring_capacity_s > 0 ? (float)(a.ring_fill_s / a.ring_capacity_s) : 0.0f, ImVec2(-1, 0), overlay);
  // Meter on a 60 dB scale.
  const float pk = to_dbfs(a.peak_hold), rms = to_dbfs(a.rms);
  std::snprintf(overlay, sizeof overlay, "peak %.1f dBFS", pk);
  ImGui::ProgressBar(std::clamp((pk + 60.0f) / 60.0f, 0.0f, 1.0f), ImVec2(-1, 0), overlay);
  std::snprintf(overlay, sizeof overlay, "rms %.1f dBFS", rms);
  ImGui::ProgressBar(std::clamp((rms + 60.0f) / 60.0f, 0.0f, 1.0f), ImVec2(-1, 0), overlay);
  ImGui::Text("gaps %llu  silent %.2f s  dropped %.2f s  underflows %llu  limited %.2f s", (unsigned long long)a.gaps,
              a.silent_frames / s.device_rate_hz(), a.dropped_frames / s.device_rate_hz(),
              (unsigned long long)a.device_underflows, a.limited_frames / s.device_rate_hz());
}

void spectrum_section(AudioSession& s) {
  const auto& db = s.spectrum_db();
  const double bin_hz = s.spectrum_bin_hz();
  if (bin_hz <= 0 || db.size() < 4) {
    ImGui::TextDisabled("no receiver samples yet");
    return;
  }
  // Log-frequency axis: 200 columns from 20 Hz (or one bin) to Nyquist, each the
  // maximum of the bins it covers, so narrow resonances stay visible.
  constexpr int kCols = 200;
  static float cols[kCols];
  const double f_lo = std::max(20.0, bin_hz), f_hi = bin_hz * (db.size() - 1);
  for (int c = 0; c < kCols; ++c) {
    const double fa = f_lo * std::pow(f_hi / f_lo, (double)c / kCols);
    const double fb = f_lo * std::pow(f_hi / f_lo, (double)(c + 1) / kCols);
    size_t ka = (size_t)(fa / bin_hz), kb = std::max(ka + 1, (size_t)(fb / bin_hz));
    float m = -200.0f;
    for (size_t k = ka; k < std::min(kb, db.size()); ++k) m = std::max(m, db[k]);
    cols[c] = m;
  }
  const float top = *std::max_element(cols, cols + kCols);
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "%.0f Hz .. %.0f Hz (log), top %.1f dB", f_lo, f_hi, top);
  ImGui::PlotLines("##spectrum", cols, kCols, 0, overlay, top - 80.0f, top + 5.0f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 120));  // explicit: 1.86 draws width -1 as a sliver
}

void auralization_section(AudioSession& s, AudioPanelState& st) {
  const Auralizer& a = s.auralizer();
  ImGui::Text("recording %.3f s", s.recording_length_s());
  if (ImGui::Button("Use recording as impulse response")) s.use_recording_as_impulse_response();
  if (a.has_impulse_response())
    ImGui::Text("impulse response: %.3f s, %zu channel(s)", a.impulse_response_length_s(), a.impulse_response().size());
  else
    ImGui::TextDisabled("no impulse response: run an impulse source, then use the recording");
  DryParams& d = st.dry;
  bool changed = false;
  int kind = (int)d.kind;
  const char* kinds[] = {"click train", "chirp", "plucked string", "noise bursts", "recording (WAV)"};
  changed |= ImGui::Combo("dry signal", &kind, kinds, 5);
  d.kind = (DryKind)kind;
  float amp = (float)d.amplitude, period = (float)d.repeat_period_s;
  changed |= ImGui::SliderFloat("amplitude", &amp, 0.0f, 1.0f);
  if (d.kind != DryKind::Recording) changed |= ImGui::SliderFloat("repeat every", &period, 0.05f, 5.0f, "%.2f s");
  d.amplitude = amp;
  d.repeat_period_s = period;
  if (d.kind == DryKind::Chirp) {
    float f0 = (float)d.chirp_start_hz, f1 = (float)d.chirp_end_hz, len = (float)d.chirp_length_s;
    changed |= ImGui::SliderFloat("from", &f0, 20.0f, 2000.0f, "%.0f Hz", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderFloat("to", &f1, 200.0f, 20000.0f, "%.0f Hz", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderFloat("sweep", &len, 0.05f, 5.0f, "%.2f s");
    d.chirp_start_hz = f0, d.chirp_end_hz = f1, d.chirp_length_s = std::min(len, period);
  } else if (d.kind == DryKind::PluckedString) {
    float f = (float)d.string_frequency_hz, decay = (float)d.string_decay;
    changed |= ImGui::SliderFloat("pitch", &f, 40.0f, 2000.0f, "%.1f Hz", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderFloat("loop gain", &decay, 0.95f, 0.9999f, "%.4f");
    d.string_frequency_hz = f, d.string_decay = decay;
  } else if (d.kind == DryKind::NoiseBursts) {
    float len = (float)d.burst_length_s;
    changed |= ImGui::SliderFloat("burst", &len, 0.005f, 1.0f, "%.3f s");
    d.burst_length_s = std::min(len, period);
  } else if (d.kind == DryKind::Recording) {
    ImGui::InputText("WAV file", st.dry_path, sizeof st.dry_path);
    ImGui::SameLine();
    if (ImGui::Button("Load")) changed |= s.load_dry_wav(st.dry_path);
    if (!a.dry_recording_name().empty()) ImGui::Text("loaded: %s", a.dry_recording_name().c_str());
  }
  if (changed) s.set_dry(d);
}

void export_section(AudioSession& s, AudioPanelState& st) {
  const char* rates[] = {"simulation rate", "44100 Hz", "48000 Hz", "96000 Hz"};
  const int rate_hz[] = {0, 44100, 48000, 96000};
  ImGui::Combo("WAV rate", &st.export_rate_index, rates, 4);
  ImGui::Checkbox("normalise to -1 dBFS", &st.export_normalize);
  ExportOptions o;
  o.rate_hz = rate_hz[std::clamp(st.export_rate_index, 0, 3)];
  o.normalize = st.export_normalize;
  ImGui::InputText("receiver file", st.export_path, sizeof st.export_path);
  ImGui::SameLine();
  if (ImGui::Button("Export##rec")) s.export_recording(st.export_path, o);
  ImGui::InputText("IR file", st.ir_path, sizeof st.ir_path);
  ImGui::SameLine();
  if (ImGui::Button("Export##ir")) s.export_impulse_response(st.ir_path, o);
}
}  // namespace

void draw_audio_panel(AudioSession& s, AudioPanelState& st, const std::vector<std::string>& receivers) {
  ImGui::PushID("audio_panel");
  if (ImGui::CollapsingHeader("Audio device", ImGuiTreeNodeFlags_DefaultOpen)) device_section(s, st, receivers);
  if (ImGui::CollapsingHeader("Playback", ImGuiTreeNodeFlags_DefaultOpen)) playback_section(s);
  if (ImGui::CollapsingHeader("Receiver spectrum", ImGuiTreeNodeFlags_DefaultOpen)) spectrum_section(s);
  if (ImGui::CollapsingHeader("Auralization")) auralization_section(s, st);
  if (ImGui::CollapsingHeader("Export WAV")) export_section(s, st);
  if (!s.message().empty()) ImGui::TextWrapped("%s", s.message().c_str());
  ImGui::PopID();
}

PanelSection make_audio_section(std::shared_ptr<AudioSession> session) {
  auto state = std::make_shared<AudioPanelState>();
  PanelSection sec;
  sec.title = "Audio";
  sec.default_open = true;
  sec.draw = [session, state](GuiContext& ctx) {
    if (!ctx.session) return;
    std::vector<std::string> names;
    for (const auto& r : ctx.model().scene().receivers) names.push_back(r.name);
    draw_audio_panel(*session, *state, names);
  };
  sec.after_advance = [session](GuiContext& ctx) {
    if (!ctx.session) return;  // the sediment model has no receivers
    WaveModel& m = ctx.model();
    session->push_history(m.receiver_history(), 1.0 / m.grid().dt_s);
    session->update();
  };
  return sec;
}

}  // namespace ws::gui
