//go:build tools

// kube-apiserver, built as `go build k8s.io/kubernetes/cmd/kube-apiserver`; this import keeps it
// in go.mod.
package cluster

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"
