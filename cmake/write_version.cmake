# Writes generated/dctwin/version.h with the current commit: run at configure time and again
# at every build (target dctwin_version), so a report or the bench never names the commit the
# build directory was configured at when the tree has moved on since. configure_file leaves the
# file untouched when nothing changed, so only a new commit recompiles the few files that
# include it.
# Inputs: SOURCE_DIR, OUTPUT, PROJECT_VERSION.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE DCTWIN_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT DCTWIN_GIT_COMMIT)
  set(DCTWIN_GIT_COMMIT "unknown")
endif()
configure_file(${SOURCE_DIR}/core/version.h.in ${OUTPUT} @ONLY)
