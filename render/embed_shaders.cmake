# cmake -DSHADER_DIR=... -DOUTPUT=... -P embed_shaders.cmake
# Writes a .cpp that holds every shaders/*.glsl|*.vert|*.frag as a raw string
# literal, so a binary copied without the shaders/ folder still has them.
file(GLOB _files RELATIVE ${SHADER_DIR} ${SHADER_DIR}/*.glsl ${SHADER_DIR}/*.vert ${SHADER_DIR}/*.frag)
list(SORT _files)
set(_out "// Generated from shaders/ by render/embed_shaders.cmake at build time; do not edit.\n")
string(APPEND _out "#include \"embedded_shaders.hpp\"\n\nnamespace ws::render {\n\n")
string(APPEND _out "const std::vector<EmbeddedShader>& embedded_shaders() {\n")
string(APPEND _out "  static const std::vector<EmbeddedShader> table = {\n")
foreach(f ${_files})
  file(READ ${SHADER_DIR}/${f} _text)
  if(_text MATCHES "\\)ws_glsl\"")
    message(FATAL_ERROR "shader ${f} contains the raw-string delimiter )ws_glsl\"")
  endif()
  string(APPEND _out "      {\"${f}\", R\"ws_glsl(${_text})ws_glsl\"},\n")
endforeach()
string(APPEND _out "  };\n  return table;\n}\n\n}  // namespace ws::render\n")
# Only touch the file when it changes, so an unchanged shader set does not rebuild.
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} _old)
endif()
if(NOT "${_old}" STREQUAL "${_out}")
  file(WRITE ${OUTPUT} "${_out}")
endif()
