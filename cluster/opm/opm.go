//go:build tools

// opm, built as `go build github.com/operator-framework/operator-registry/cmd/opm`; this import
// keeps it in go.mod.
package opm

import _ "github.com/operator-framework/operator-registry/cmd/opm/root"
