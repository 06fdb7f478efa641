#!/usr/bin/env bash
# Builds the real cluster's programs at the versions pinned in cluster/go.mod (kube-apiserver,
# kube-controller-manager, kube-scheduler, etcd), cluster/opm/go.mod (opm), cluster/olm/go.mod
# (OLM's olm, catalog and package-server), cluster/kwok/go.mod (kwok) and cluster/olm-v1/go.mod
# (OLM v1's operator-controller and catalogd), and the project's own image registry and pusher
# (cluster/registry, on go-containerregistry), and Open Cluster Management's hub controllers and
# klusterlet agent (cluster/ocm/go.mod: registration-operator, registration, work, placement;
# `ocm` builds only these, for `npm run cluster -- --fleet N`) and config policy controller
# (cluster/policy/go.mod), all of them by default (`all`), into
# .cluster/bin/<program>-<version>/<program> at the repository's root (ignored by git; the
# CLUSTER_BIN environment variable moves it). A program already built at its version, with the
# same flags, is not built again, so only the first run (or a version change) pays for compiling.
# Prints how long each build took.
#
#   cluster/build.sh [all|etcd|kube-apiserver|kube-controller-manager|kube-scheduler|opm|olm|catalog|package-server|kwok|operator-controller|catalogd|registry|ocm|registration-operator|registration|work|placement|config-policy-controller|paths|ocm-paths] ...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${CLUSTER_BIN:-$root/.cluster/bin}
# The Go these machines have builds every pin; never let Go fetch another toolchain. go.mod and
# go.sum are complete: a build never changes them (-mod=readonly), so it builds exactly the pins.
export GOTOOLCHAIN=local GOFLAGS=-mod=readonly

mod() { (cd "$1" && go list -m -f "$3" "$2"); }
version() { mod "$1" "$2" '{{.Version}}'; }
# A release's time, as the module proxy records it: the time of the tagged commit, which is what
# the projects' own release builds stamp as their build date.
released() { mod "$1" "$2" '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}'; }
kube=$(version "$here" k8s.io/kubernetes)
etcd=$(version "$here" go.etcd.io/etcd/server/v3)
opm=$(version "$here/opm" github.com/operator-framework/operator-registry)
olm=$(version "$here/olm" github.com/operator-framework/operator-lifecycle-manager)
kwok=$(version "$here/kwok" sigs.k8s.io/kwok)
olmv1=$(version "$here/olm-v1" github.com/operator-framework/operator-controller)
ocm=$(version "$here/ocm" open-cluster-management.io/ocm)
cpc=$(version "$here/policy" open-cluster-management.io/config-policy-controller)
# cluster/olm.version names the release whose CRDs and roles scripts/cluster.ts installs: the OLM
# that runs must be that one.
if [ "$olm" != "$(cat "$here/olm.version")" ]; then
  echo "cluster/build.sh: cluster/olm/go.mod pins OLM $olm but cluster/olm.version says $(cat "$here/olm.version"); make them agree" >&2
  exit 1
fi

# The git commit each pinned release was tagged at. Module zips carry no git metadata, so it is
# recorded here, from the projects' release records; a new pin needs its line.
#   k8s.io/kubernetes v1.34.4: tag v1.34.4 of github.com/kubernetes/kubernetes
#   go.etcd.io/etcd v3.6.4: `etcd --version` of the release build ("Git SHA: 5400cdc")
#   operator-registry v1.61.0: tag v1.61.0 of github.com/operator-framework/operator-registry
#   operator-lifecycle-manager v0.38.0: tag v0.38.0 (annotated) of
#     github.com/operator-framework/operator-lifecycle-manager; every file of the module's zip is
#     the same git blob as in that commit's tree
#   kwok v0.7.0: tag v0.7.0 of github.com/kubernetes-sigs/kwok; every file of the module's zip is
#     the same git blob as in that commit's tree
#   operator-controller v1.2.0: tag v1.2.0 (lightweight) of
#     github.com/operator-framework/operator-controller; every file of the module's zip is the same
#     git blob as in that commit's tree
#   ocm v1.0.0, config-policy-controller v0.16.0: the module proxy's record of each release
#     (`go mod download -json`: Origin.Hash of refs/tags/v1.0.0, refs/tags/v0.16.0)
commit() {
  case "$1@$2" in
    kubernetes@v1.34.4) echo 14507e2fb33b11d2712ccbaed0bc282c27a4a04a ;;
    etcd@v3.6.4) echo 5400cdc ;;
    operator-registry@v1.61.0) echo b951856d801cab0e2ab128c2515f50c3b63824ba ;;
    operator-lifecycle-manager@v0.38.0) echo 6838e5e8be6bf78ea11bcc3e7b2964a29df0664e ;;
    kwok@v0.7.0) echo c04392afe3cc6929cd3cc79f61d8bdcd83a8ba5d ;;
    operator-controller@v1.2.0) echo c899dc1b2a412b7797ce8435825e58c885a34502 ;;
    ocm@v1.0.0) echo 567caa2fe9f58c0816db0b7fb6775a6edff7b612 ;;
    config-policy-controller@v0.16.0) echo 0d84aeeea563064a485087f52fdc0380a4d516d8 ;;
    *) echo "cluster/build.sh: no git commit recorded for $1 $2; add it to commit() in cluster/build.sh" >&2; return 1 ;;
  esac
}

# What kube-apiserver's /version reports, set as Kubernetes' own build does (hack/lib/version.sh).
# gitTreeState "archive": built from the released source archive, not a git work tree.
kube_commit=$(commit kubernetes "$kube")
minor=$(echo "$kube" | cut -d. -f2)
kube_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  kube_ldflags+=" -X $pkg.gitVersion=$kube -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitCommit=$kube_commit -X $pkg.gitTreeState=archive -X $pkg.buildDate=$(released "$here" k8s.io/kubernetes)"
done
etcd_ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$(commit etcd "$etcd")"
# opm as operator-registry's Makefile builds it: signatures checked in Go (no gpgme C library),
# sqlite with JSON support, its version stamped.
opm_pkg=github.com/operator-framework/operator-registry/cmd/opm
opm_ldflags="-s -w -X $opm_pkg/version.opmVersion=$opm -X $opm_pkg/version.gitCommit=$(commit operator-registry "$opm") -X $opm_pkg/version.buildDate=$(released "$here/opm" github.com/operator-framework/operator-registry)"
opm_tags=containers_image_openpgp,json1,netgo,osusergo
# OLM as its Makefile builds it (GO_BUILD_LDFLAGS, GO_BUILD_TAGS): without cgo, sqlite with JSON
# support, OLMVersion (`git describe --tags` at the tag: the tag) and GitCommit (`git rev-parse
# HEAD`) stamped; its -extldflags -static is moot without cgo.
olm_mod=github.com/operator-framework/operator-lifecycle-manager
olm_ldflags="-s -w -X $olm_mod/pkg/version.OLMVersion=$olm -X $olm_mod/pkg/version.GitCommit=$(commit operator-lifecycle-manager "$olm")"
olm_tags=json1
# kwok as its release build makes it (hack/releases.sh, from `make build`): without cgo, its version
# stamped (`git describe --tags` at the tag); nothing else it stamps matters to the kwok command.
kwok_ldflags="-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$kwok"
commit kwok "$kwok" >/dev/null # a new pin needs its commit line too
# OLM v1 as its Makefile builds it (GO_BUILD_TAGS, GO_BUILD_LDFLAGS): without cgo, signatures
# checked in Go (no gpgme), its version stamped (`git describe --tags` at the tag: the tag). Its
# commit and date come from Go's VCS build info in a git checkout, which a module zip has not; they
# are stamped instead, as for the others (the tree state is left "unknown").
olmv1_mod=github.com/operator-framework/operator-controller
olmv1_ver=$olmv1_mod/internal/shared/version
olmv1_ldflags="-s -w -X $olmv1_ver.version=$olmv1 -X $olmv1_ver.gitCommit=$(commit operator-controller "$olmv1") -X $olmv1_ver.commitDate=$(released "$here/olm-v1" "$olmv1_mod")"
olmv1_tags=containers_image_openpgp
# The project's own registry program: its version is its go-containerregistry's and its own
# source's hash, so a change to either builds it again.
ggcr=$(version "$here/registry" github.com/google/go-containerregistry)-$(cat "$here/registry/main.go" "$here/registry/go.mod" "$here/registry/go.sum" | sha256sum | cut -c1-12)
# Open Cluster Management as its Makefile builds it (openshift's build-machinery: pkg/version's
# versionFromGit, commitFromGit, majorFromGit, minorFromGit and buildDate stamped), with Go's
# default cgo. The config policy controller's Makefile stamps nothing (its version.Version is a
# constant) and builds with cgo on; Go's default here too.
ocm_mod=open-cluster-management.io/ocm
ocm_ver=$ocm_mod/pkg/version
ocm_ldflags="-s -w -X $ocm_ver.versionFromGit=$ocm -X $ocm_ver.commitFromGit=$(commit ocm "$ocm") -X $ocm_ver.majorFromGit=$(echo "$ocm" | cut -d. -f1 | tr -d v) -X $ocm_ver.minorFromGit=$(echo "$ocm" | cut -d. -f2) -X $ocm_ver.buildDate=$(released "$here/ocm" "$ocm_mod")"
cpc_mod=open-cluster-management.io/config-policy-controller
commit config-policy-controller "$cpc" >/dev/null # a new pin needs its commit line too

locked=
build() { # name version module-dir package ldflags [tags] [cgo: 0 or 1, else Go's default]
  local name=$1 ver=$2 dir=$3 pkg=$4 ldflags=$5 tags=${6:-} cgo=${7:-}
  # One build at a time: two clusters started together wait for one another instead of
  # fighting over the same output.
  if [ -z "$locked" ]; then mkdir -p "$bin"; exec 9>"$bin/.lock"; flock 9; locked=1; fi
  local out="$bin/$name-$ver/$name"
  local recipe="go=$(go env GOVERSION) pkg=$pkg tags=$tags ldflags=$ldflags${cgo:+ cgo=$cgo}"
  if [ -x "$out" ] && [ "$(cat "$out.recipe" 2>/dev/null)" = "$recipe" ]; then echo "$name $ver: built already"; return; fi
  mkdir -p "$(dirname "$out")"
  local t0=$SECONDS
  (cd "$dir" && if [ -n "$cgo" ]; then export CGO_ENABLED=$cgo; fi && go build -trimpath -tags "$tags" -ldflags "$ldflags" -o "$out.partial" "$pkg")
  mv "$out.partial" "$out"
  echo "$recipe" >"$out.recipe"
  echo "$name $ver: built in $((SECONDS - t0)) s"
}

for p in "${@:-all}"; do
  case "$p" in
    all)
      build etcd "$etcd" "$here" ./etcd "$etcd_ldflags"
      build kube-apiserver "$kube" "$here" k8s.io/kubernetes/cmd/kube-apiserver "$kube_ldflags"
      build opm "$opm" "$here/opm" "$opm_pkg" "$opm_ldflags" "$opm_tags"
      build kube-controller-manager "$kube" "$here" k8s.io/kubernetes/cmd/kube-controller-manager "$kube_ldflags"
      build kube-scheduler "$kube" "$here" k8s.io/kubernetes/cmd/kube-scheduler "$kube_ldflags"
      build kwok "$kwok" "$here/kwok" sigs.k8s.io/kwok/cmd/kwok "$kwok_ldflags" "" 0
      build olm "$olm" "$here/olm" "$olm_mod/cmd/olm" "$olm_ldflags" "$olm_tags" 0
      build catalog "$olm" "$here/olm" "$olm_mod/cmd/catalog" "$olm_ldflags" "$olm_tags" 0
      build package-server "$olm" "$here/olm" "$olm_mod/cmd/package-server" "$olm_ldflags" "$olm_tags" 0
      build operator-controller "$olmv1" "$here/olm-v1" "$olmv1_mod/cmd/operator-controller" "$olmv1_ldflags" "$olmv1_tags" 0
      build catalogd "$olmv1" "$here/olm-v1" "$olmv1_mod/cmd/catalogd" "$olmv1_ldflags" "$olmv1_tags" 0
      build registry "$ggcr" "$here/registry" . "-s -w" "" 0
      for c in registration-operator registration work placement; do build "$c" "$ocm" "$here/ocm" "$ocm_mod/cmd/$c" "$ocm_ldflags"; done
      build config-policy-controller "$cpc" "$here/policy" "$cpc_mod" "-s -w"
      ;;
    etcd) build etcd "$etcd" "$here" ./etcd "$etcd_ldflags" ;;
    kube-apiserver) build kube-apiserver "$kube" "$here" k8s.io/kubernetes/cmd/kube-apiserver "$kube_ldflags" ;;
    kube-controller-manager) build kube-controller-manager "$kube" "$here" k8s.io/kubernetes/cmd/kube-controller-manager "$kube_ldflags" ;;
    kube-scheduler) build kube-scheduler "$kube" "$here" k8s.io/kubernetes/cmd/kube-scheduler "$kube_ldflags" ;;
    opm) build opm "$opm" "$here/opm" "$opm_pkg" "$opm_ldflags" "$opm_tags" ;;
    kwok) build kwok "$kwok" "$here/kwok" sigs.k8s.io/kwok/cmd/kwok "$kwok_ldflags" "" 0 ;;
    olm|catalog|package-server) build "$p" "$olm" "$here/olm" "$olm_mod/cmd/$p" "$olm_ldflags" "$olm_tags" 0 ;;
    registry) build registry "$ggcr" "$here/registry" . "-s -w" "" 0 ;;
    operator-controller|catalogd) build "$p" "$olmv1" "$here/olm-v1" "$olmv1_mod/cmd/$p" "$olmv1_ldflags" "$olmv1_tags" 0 ;;
    ocm) # what a fleet runs: OCM's four commands and config-policy-controller
      for c in registration-operator registration work placement; do build "$c" "$ocm" "$here/ocm" "$ocm_mod/cmd/$c" "$ocm_ldflags"; done
      build config-policy-controller "$cpc" "$here/policy" "$cpc_mod" "-s -w"
      ;;
    registration-operator|registration|work|placement) build "$p" "$ocm" "$here/ocm" "$ocm_mod/cmd/$p" "$ocm_ldflags" ;;
    config-policy-controller) build "$p" "$cpc" "$here/policy" "$cpc_mod" "-s -w" ;;
    paths)
      echo "etcd=$bin/etcd-$etcd/etcd"; echo "kube-apiserver=$bin/kube-apiserver-$kube/kube-apiserver"; echo "kube-controller-manager=$bin/kube-controller-manager-$kube/kube-controller-manager"; echo "opm=$bin/opm-$opm/opm"
      echo "kube-scheduler=$bin/kube-scheduler-$kube/kube-scheduler"; echo "kwok=$bin/kwok-$kwok/kwok"
      for c in olm catalog package-server; do echo "$c=$bin/$c-$olm/$c"; done
      for c in operator-controller catalogd; do echo "$c=$bin/$c-$olmv1/$c"; done
      echo "registry=$bin/registry-$ggcr/registry"
      ;;
    ocm-paths) # apart from `paths`: a cluster without a fleet needs none of them
      for c in registration-operator registration work placement; do echo "$c=$bin/$c-$ocm/$c"; done
      echo "config-policy-controller=$bin/config-policy-controller-$cpc/config-policy-controller"
      ;;
    *) echo "usage: cluster/build.sh [all|etcd|kube-apiserver|kube-controller-manager|kube-scheduler|opm|olm|catalog|package-server|kwok|operator-controller|catalogd|registry|ocm|registration-operator|registration|work|placement|config-policy-controller|paths|ocm-paths] ..." >&2; exit 2 ;;
  esac
done
