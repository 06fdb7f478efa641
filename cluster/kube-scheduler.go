//go:build tools

// kube-scheduler (binds Pods to Nodes: here, to kwok's fake Node), built as
// `go build k8s.io/kubernetes/cmd/kube-scheduler`.
package cluster

import _ "k8s.io/kubernetes/cmd/kube-scheduler/app"
