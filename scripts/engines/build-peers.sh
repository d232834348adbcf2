#!/usr/bin/env bash
# Builds the adapters of real physics engines in Examples/engines/peers/ as
# engine libraries (kinetics_engine.h) for `kinetics bench --engine-library`
# and `kinetics verify --engine-library`, each against its Debian package,
# installing the package with apt-get when it is missing (as root on Debian
# or Ubuntu, as scripts/ensure-gsl.sh installs GSL); elsewhere it says what
# to install and fails.
#
#   scripts/engines/build-peers.sh [FOLDER]    libraries into FOLDER (default .build/peers)
#
# Prints the path of each library, one a line. A library newer than its
# adapter, the engine header and this script is kept, not built again.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/peers}"
mkdir -p "$out"

# adapter source, Debian package, a header that shows the package is there, link flags
peers=(
    "chipmunk_springs.c libchipmunk-dev /usr/include/chipmunk/chipmunk.h -lchipmunk"
    "box2d_springs.cc libbox2d-dev /usr/include/box2d/box2d.h -lbox2d"
    "bullet_springs.cc libbullet-dev /usr/include/bullet/btBulletDynamicsCommon.h -I/usr/include/bullet -lBulletDynamics -lBulletCollision -lLinearMath"
    "ode_springs.c libode-dev /usr/include/ode/ode.h -lode"
)

missing=()
for peer in "${peers[@]}"; do
    read -r _ package header _ <<<"$peer"
    [[ -e "$header" ]] || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "build-peers: installing ${missing[*]} with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "build-peers: missing ${missing[*]}; install them (Debian/Ubuntu: sudo apt-get install ${missing[*]}) and run again." >&2
        exit 1
    fi
fi

for peer in "${peers[@]}"; do
    read -r source _ _ flags <<<"$peer"
    name="${source%.*}"
    library="$out/lib$name.so"
    case "$source" in
        *.cc) compiler=(c++ -std=c++20) ;;
        *) compiler=(cc) ;;
    esac
    header=Sources/CKineticsEngine/include/kinetics_engine.h
    if ! [[ $library -nt Examples/engines/peers/$source && $library -nt $header && $library -nt $0 ]]; then
        "${compiler[@]}" -O2 -Wall -Wextra -Werror -shared -fPIC -I Sources/CKineticsEngine/include \
            -o "$library" "Examples/engines/peers/$source" $flags -lm
    fi
    echo "$library"
done
