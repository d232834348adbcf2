# Sourced by the scripts that build or read the release build: the flags
# of its one configuration. Sets `release_flags`.
scripts/ensure-gsl.sh
release_flags=(-c release --traits Tools)
