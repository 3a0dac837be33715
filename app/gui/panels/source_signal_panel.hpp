#pragma once
// "Source signals": what each source of the wave scene plays, and a picker that
// makes it play a WAV file or a dry signal from the current step on (resampled to
// the simulation rate, streamed into the run; sim/core/sample_stream.hpp). With
// two receivers as the ears, the audio panel's pacing plays it as it is computed.
#include "gui/panel.hpp"

namespace ws::gui {

PanelSection make_source_signal_section();

}  // namespace ws::gui
