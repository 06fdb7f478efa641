//go:build tools

// kube-controller-manager (Deployments → ReplicaSets → Pods, garbage collection, namespace
// deletion), built as `go build k8s.io/kubernetes/cmd/kube-controller-manager`.
package cluster

import _ "k8s.io/kubernetes/cmd/kube-controller-manager/app"
