# Plants the mutants of one impl or model file (docs/MUTANTS.md): writes
# OUTPUT, the mutant copy of SOURCE_DIR/SYSTEM/FILE, by applying its patch
# with PATCH_PROGRAM (GNU patch): mutants/patches/FILE.patch for impl/FILE,
# mutants/patches/model/FILE.patch for model/FILE. SYSTEM is impl (the
# default) or model. The build (CMakeLists.txt, SCHEDTRACE_MUTANTS) runs it
# whenever the file or its patch changes:
#
#   cmake -DPATCH_PROGRAM=/usr/bin/patch -DSOURCE_DIR=. -DSYSTEM=impl
#         -DFILE=queue.cc -DOUTPUT=build/mutants/impl/queue.cc
#         -P mutants/apply.cmake
#
# The context must match exactly (--fuzz=0): a hunk whose lines moved still
# applies, one whose lines changed fails the build with the patch and hunk
# named, rather than planting a bug somewhere it was not meant to go.
# mutants/refresh re-plants it.
foreach(_var PATCH_PROGRAM SOURCE_DIR FILE OUTPUT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "mutants/apply.cmake: -D${_var}=... missing")
  endif()
endforeach()

if(NOT DEFINED SYSTEM)
  set(SYSTEM impl)
endif()
if(SYSTEM STREQUAL "impl")
  set(_patch_rel "mutants/patches/${FILE}.patch")
elseif(SYSTEM STREQUAL "model")
  set(_patch_rel "mutants/patches/model/${FILE}.patch")
else()
  message(FATAL_ERROR "mutants/apply.cmake: -DSYSTEM=${SYSTEM}: impl or model")
endif()
set(_source "${SOURCE_DIR}/${SYSTEM}/${FILE}")
set(_patch "${SOURCE_DIR}/${_patch_rel}")
set(_tmp "${OUTPUT}.tmp")
get_filename_component(_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_dir}")
execute_process(
  COMMAND "${PATCH_PROGRAM}" --batch --fuzz=0 --no-backup-if-mismatch
          --reject-file=- --output=${_tmp} --input=${_patch} ${_source}
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  file(REMOVE "${_tmp}")
  # Name each failed hunk by its header line, the Nth "@@" of the patch.
  file(STRINGS "${_patch}" _headers REGEX "^@@ ")
  string(REGEX MATCHALL "Hunk #[0-9]+ FAILED at [0-9]+" _failed "${_out}")
  set(_hunks "")
  foreach(_f IN LISTS _failed)
    string(REGEX REPLACE "Hunk #([0-9]+) FAILED at ([0-9]+)" "\\1;\\2" _nl
                         "${_f}")
    list(GET _nl 0 _n)
    list(GET _nl 1 _line)
    math(EXPR _i "${_n} - 1")
    list(GET _headers ${_i} _header)
    string(APPEND _hunks
           "  hunk #${_n} (${_header}), looked for near line ${_line}\n")
  endforeach()
  if(_hunks STREQUAL "")
    set(_hunks "${_out}")
  endif()
  message(FATAL_ERROR
    "${_patch_rel} no longer applies to ${SYSTEM}/${FILE}:\n"
    "${_hunks}"
    "${SYSTEM}/${FILE} changed where a mutant is planted. Re-plant it:\n"
    "  bash mutants/refresh checkout   # patched copies, .rej for the rest\n"
    "  (edit build/mutants-edit/${SYSTEM}/${FILE} until it is ${SYSTEM}'s "
    "file with the mutant's branches again)\n"
    "  bash mutants/refresh            # rewrites mutants/patches/\n"
    "(docs/MUTANTS.md, \"Keeping the patches working\")")
endif()
file(RENAME "${_tmp}" "${OUTPUT}")
