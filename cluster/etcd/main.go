// etcd, from the etcd server module kube-apiserver itself is built against: its own command line
// (etcdmain), nothing added.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
