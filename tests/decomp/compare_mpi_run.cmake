# `wavescope run` on one process against `mpiexec -np RANKS wavescope run` on the CPU:
# the receivers' CSV files must be identical byte for byte.
#   cmake -DWAVESCOPE=... -DMPIEXEC=... -DRANKS=... -DSCENE=... -DOUT=... [-DRANKS_ARGS=a;b] -P compare_mpi_run.cmake
# RANKS_ARGS: more options for the ranks' run only (--halo-overlap off).
set(args run --scene ${SCENE} --backend cpu --steps 160 --quiet)
execute_process(COMMAND ${WAVESCOPE} ${args} --csv ${OUT}/one.csv RESULT_VARIABLE rc1 ERROR_VARIABLE err1)
if(NOT rc1 EQUAL 0)
  message(FATAL_ERROR "one process failed (${rc1}): ${err1}")
endif()
execute_process(COMMAND ${MPIEXEC} -np ${RANKS} --oversubscribe ${WAVESCOPE} ${args} ${RANKS_ARGS} --csv ${OUT}/ranks.csv
                RESULT_VARIABLE rc2 ERROR_VARIABLE err2)
if(NOT rc2 EQUAL 0)
  message(FATAL_ERROR "${RANKS} ranks failed (${rc2}): ${err2}")
endif()
file(READ ${OUT}/one.csv one)
file(READ ${OUT}/ranks.csv ranks)
if(NOT one STREQUAL ranks)
  message(FATAL_ERROR "the receivers of ${RANKS} ranks differ from one process (${OUT}/one.csv, ${OUT}/ranks.csv)")
endif()
# The sound must have reached the receivers (a negative pressure: the source's
# derivative-of-Gaussian lobe), else the comparison means nothing.
string(FIND "${one}" ",-" lobe)
if(lobe LESS 0)
  message(FATAL_ERROR "the receivers stayed silent: run longer or move them (${OUT}/one.csv)")
endif()
message(STATUS "${RANKS} ranks: receivers identical to one process")
