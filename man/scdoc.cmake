# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# cmake -DSCDOC=... -DSOURCE=page.scd -DOUTPUT=page -DVERSION=x.y.z -P scdoc.cmake
# Fills @VERSION@ into the scdoc source and runs scdoc on it (no shell involved).
configure_file(${SOURCE} ${OUTPUT}.scd @ONLY)
execute_process(COMMAND ${SCDOC} INPUT_FILE ${OUTPUT}.scd OUTPUT_FILE ${OUTPUT}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUTPUT})
  message(FATAL_ERROR "scdoc failed on ${SOURCE}: ${status}")
endif()
