#!/usr/bin/env bash
# install-on-cluster.sh: builds opsconsole against the cluster's own Slurm
# (libslurm's soname changes with every release, so a package built
# elsewhere would not load it), installs it and writes the cluster's
# profile. One script for the three kinds of cluster (docs/install.md):
#
#   ParallelCluster head node   CustomActions: OnNodeConfigured: Script: s3://BUCKET/install-on-cluster.sh
#                               Args: [--source, s3://BUCKET/opsconsole.tar.gz]
#   AWS PCS login node          sudo ./install-on-cluster.sh --source opsconsole.tar.gz
#   on-prem head node           sudo ./install-on-cluster.sh --source . --platform onprem
#
# Options:
#   --source DIR|TARBALL|s3://...  the opsconsole source tree (required unless --prebuilt)
#   --prebuilt BUILD_DIR  install an existing build folder (cmake --install) instead
#   --platform P          parallelcluster | pcs | onprem | auto (default: auto,
#                         from /opt/parallelcluster, /opt/aws/pcs)
#   --slurm-root DIR      the Slurm prefix (default: /opt/slurm on
#                         ParallelCluster, the newest /opt/aws/pcs/scheduler/slurm-*
#                         on PCS, the prefix of `sinfo` on PATH otherwise)
#   --slurm-conf FILE     slurm.conf for the profile (default: SLURM_ROOT/etc/slurm.conf,
#                         /etc/slurm/slurm.conf, or none: configless, as on PCS)
#   --cluster NAME        the profile's name (default: ClusterName of slurm.conf)
#   --prefix DIR          where the program goes (default /opt/opsconsole)
#   --no-deps             do not install the build dependencies
#   --root DIR            prefix every path written (tests)
#   --dry-run             say what would be done, do nothing
# Exit status: 0 installed, 1 a step failed, 2 usage.
set -euo pipefail

source_arg="" prebuilt="" platform=auto slurm_root="" slurm_conf="" cluster="" prefix=/opt/opsconsole
deps=1 root="" dry=0
die() { echo "install-on-cluster: $*" >&2; exit 1; }
usage() { echo "install-on-cluster: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--source) source_arg=${2:?--source wants a value}; shift 2 ;;
	--prebuilt) prebuilt=${2:?--prebuilt wants a build folder}; shift 2 ;;
	--platform) platform=${2:?}; shift 2 ;;
	--slurm-root) slurm_root=${2:?}; shift 2 ;;
	--slurm-conf) slurm_conf=${2:?}; shift 2 ;;
	--cluster) cluster=${2:?}; shift 2 ;;
	--prefix) prefix=${2:?}; shift 2 ;;
	--no-deps) deps=0; shift ;;
	--root) root=${2:?}; shift 2 ;;
	--dry-run) dry=1; shift ;;
	-h | --help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument $1 (--help)" ;;
	esac
done
[ -n "$source_arg" ] || [ -n "$prebuilt" ] || usage "--source or --prebuilt is required"
case $platform in auto | parallelcluster | pcs | onprem) ;; *) usage "--platform is parallelcluster, pcs, onprem or auto" ;; esac
case $prefix in /*) ;; *) usage "--prefix must be absolute" ;; esac
run() { # a command, shown; not run with --dry-run
	echo "+ $*"
	[ "$dry" = 1 ] || "$@"
}

# The platform, as the console detects it (core/platform.c).
if [ "$platform" = auto ]; then
	if [ -d "$root/opt/parallelcluster" ]; then platform=parallelcluster
	elif [ -d "$root/opt/aws/pcs" ]; then platform=pcs
	else platform=onprem
	fi
fi
if [ -z "$slurm_root" ]; then
	case $platform in
	parallelcluster) slurm_root=/opt/slurm ;;
	pcs) slurm_root=$(ls -d "$root"/opt/aws/pcs/scheduler/slurm-* 2>/dev/null | sort -V | tail -1) &&
		slurm_root=${slurm_root#"$root"} || true ;;
	onprem) s=$(command -v sinfo 2>/dev/null) && slurm_root=$(dirname "$(dirname "$s")") || true ;;
	esac
fi
[ -n "$slurm_root" ] && [ -d "$root$slurm_root" ] || die "no Slurm prefix found for $platform (--slurm-root DIR)"
if [ -z "$slurm_conf" ]; then
	for c in "$slurm_root/etc/slurm.conf" /etc/slurm/slurm.conf /etc/slurm-llnl/slurm.conf; do
		if [ -f "$root$c" ]; then slurm_conf=$c; break; fi
	done
fi
if [ -z "$cluster" ]; then
	[ -n "$slurm_conf" ] && cluster=$(sed -n 's/^[[:space:]]*ClusterName[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/Ip' "$root$slurm_conf" | tail -1)
	[ -n "$cluster" ] || die "no ClusterName found (--cluster NAME)"
fi
[[ $cluster =~ ^[A-Za-z0-9._-]{1,63}$ ]] || usage "--cluster: 1-63 of A-Z a-z 0-9 . _ -"
echo "platform $platform, Slurm in $slurm_root, slurm.conf ${slurm_conf:-(configless)}, cluster $cluster, into $root$prefix"

# Build dependencies from the distribution's packages.
if [ "$deps" = 1 ] && [ -z "$prebuilt" ]; then
	. /etc/os-release
	case " ${ID:-} ${ID_LIKE:-} " in
	*" debian "* | *" ubuntu "*)
		run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc make cmake pkg-config \
			libncurses-dev libjansson-dev libssh-dev ;;
	*" amzn "* | *" rhel "* | *" fedora "* | *" centos "*)
		# RHEL 9 family: libssh-devel and jansson-devel are in AppStream/CRB.
		run dnf install -y -q gcc make cmake pkgconf-pkg-config ncurses-devel jansson-devel libssh-devel ;;
	*) die "unknown distribution ${ID:-?}: install gcc, cmake, ncurses, jansson and libssh headers, then --no-deps" ;;
	esac
fi

# The source, then the build against this Slurm.
build=$prebuilt
if [ -z "$prebuilt" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	case $source_arg in
	s3://*) run aws s3 cp --quiet "$source_arg" "$work/src.tar.gz"; src_tar=$work/src.tar.gz ;;
	*.tar.gz | *.tgz) src_tar=$source_arg ;;
	*) [ -f "$source_arg/CMakeLists.txt" ] || die "$source_arg: no CMakeLists.txt"; src_tar="" ;;
	esac
	src=$source_arg
	if [ -n "$src_tar" ]; then
		run mkdir -p "$work/src"
		run tar -xzf "$src_tar" -C "$work/src" --strip-components=1
		src=$work/src
	fi
	build=$work/build
	run cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_TESTS=OFF \
		-DSLURM_ROOT="$root$slurm_root" -DCMAKE_INSTALL_PREFIX="$prefix"
	run cmake --build "$build" -j"$(nproc)"
fi
[ "$dry" = 1 ] || [ -f "$build/CMakeCache.txt" ] || die "$build: not a build folder"
run cmake --install "$build" --prefix "$root$prefix"
run mkdir -p "$root/usr/local/bin"
run ln -sf "$prefix/bin/opsconsole" "$root/usr/local/bin/opsconsole"

# The profile: root's, readable by all (the console refuses a profile
# others can write).
profile=$root/etc/opsconsole/clusters/$cluster.json
run mkdir -p "$(dirname "$profile")" "$root/var/log/opsconsole"
json=$(jq -n --arg name "$cluster" --arg conf "$slurm_conf" --arg platform "$platform" \
	--arg bin "$slurm_root/bin" --arg audit "/var/log/opsconsole/$cluster-audit.log" \
	'{name: $name, platform: $platform, slurm_bin: $bin, audit_log: $audit}
	 + (if $conf == "" then {} else {slurm_conf: $conf} end)') || die "jq is needed to write the profile"
echo "+ write $profile:"
echo "$json"
if [ "$dry" = 0 ]; then
	umask 022
	printf '%s\n' "$json" >"$profile.tmp"
	chmod 0644 "$profile.tmp"
	mv "$profile.tmp" "$profile"
fi
echo "installed: $prefix/bin/opsconsole --cluster $cluster"
