#pragma once
// One offscreen EGL context per test binary (creating a context per test is
// slow on llvmpipe). A machine without any EGL device skips with the reason.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "egl_context.hpp"

namespace ws::testing {

inline render::EglContext* shared_egl(std::string& why_not) {
  static std::unique_ptr<render::EglContext> ctx;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      ctx = std::make_unique<render::EglContext>();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  why_not = error;
  if (ctx) ctx->make_current();
  return ctx.get();
}

}  // namespace ws::testing

#define WS_REQUIRE_EGL()                                                      \
  do {                                                                        \
    std::string ws_why_;                                                      \
    if (!::ws::testing::shared_egl(ws_why_)) GTEST_SKIP() << "no EGL: " << ws_why_; \
  } while (0)
