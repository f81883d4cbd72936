# Sourced by the bench scripts that read Darshan logs: sets SAMPLE_LOGS to a folder of them, inside the checkout.
# The repository keeps no third-party log: the default is the logs darshan's tests write with pdla's own writer
# (darshan/target/written-logs, WrittenLogs), made here when missing. PDLA_DARSHAN_SAMPLE_LOGS names another folder
# (for instance real runtime logs), as for the tests' optional corpus.
if [ -n "${PDLA_DARSHAN_SAMPLE_LOGS:-}" ]; then
  SAMPLE_LOGS=$PDLA_DARSHAN_SAMPLE_LOGS
  [ -d "$SAMPLE_LOGS" ] || { echo "PDLA_DARSHAN_SAMPLE_LOGS=$SAMPLE_LOGS is not a folder" >&2; exit 2; }
else
  SAMPLE_LOGS=darshan/target/written-logs
  if [ -z "$(find "$SAMPLE_LOGS" -maxdepth 1 -name '*.darshan' 2>/dev/null | head -1)" ]; then
    echo "writing the sample Darshan logs into $SAMPLE_LOGS (darshan's DarshanSampleLogsTest)" >&2
    # no escape codes in a log or a pipe (see ../../pdla)
    MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q -Dstyle.color=never -pl darshan -am test -Dtest=DarshanSampleLogsTest -Dsurefire.failIfNoSpecifiedTests=false >&2
  fi
fi
[ -n "$(find "$SAMPLE_LOGS" -maxdepth 1 -name '*.darshan' | head -1)" ] || { echo "no *.darshan in $SAMPLE_LOGS" >&2; exit 2; }
