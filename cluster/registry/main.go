// registry: the real cluster's image registry, and the pusher of its images, both on
// go-containerregistry (its in-memory OCI distribution registry, pkg/registry, and its image
// library: mutate, remote). No home-made registry or image format: only the files of an image.
//
//	registry serve --addr 127.0.0.1:PORT --tls-cert FILE --tls-key FILE
//	registry push-catalog --ca FILE DIR REF   # DIR's files under /configs, labelled as an FBC index
//	registry push-bundle --ca FILE DIR REF    # DIR as a registry+v1 bundle: manifests/, metadata/
//
// A push prints the image's digest. The registry keeps everything in memory: a new start is empty.
package main

import (
	"archive/tar"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"sigs.k8s.io/yaml"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: registry serve|push-catalog|push-bundle ...")
	}
	fl := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	switch os.Args[1] {
	case "serve":
		addr := fl.String("addr", "127.0.0.1:5000", "address to listen on")
		cert := fl.String("tls-cert", "", "serving certificate (PEM)")
		key := fl.String("tls-key", "", "its key (PEM)")
		_ = fl.Parse(os.Args[2:])
		log.Printf("registry: serving https://%s", *addr)
		srv := &http.Server{Addr: *addr, Handler: registry.New(registry.Logger(log.New(os.Stderr, "", log.LstdFlags)))}
		log.Fatal(srv.ListenAndServeTLS(*cert, *key))
	case "push-catalog", "push-bundle":
		ca := fl.String("ca", "", "CA that signed the registry's certificate (PEM)")
		_ = fl.Parse(os.Args[2:])
		if fl.NArg() != 2 {
			log.Fatalf("usage: registry %s --ca FILE DIR REF", os.Args[1])
		}
		if err := push(os.Args[1] == "push-catalog", fl.Arg(0), fl.Arg(1), *ca); err != nil {
			log.Fatalf("registry %s: %v", os.Args[1], err)
		}
	default:
		log.Fatalf("registry: unknown command %q", os.Args[1])
	}
}

func push(catalog bool, dir, ref, caFile string) error {
	r, err := name.ParseReference(ref, name.StrictValidation)
	if err != nil {
		return err
	}
	labels := map[string]string{}
	var layer v1.Layer
	if catalog {
		// As opm's generated catalog Dockerfile: the FBC under /configs, found through this label.
		labels["operators.operatorframework.io.index.configs.v1"] = "/configs"
		layer, err = tarLayer(map[string]string{"configs": dir})
	} else {
		// As a bundle's Dockerfile (operator-sdk, opm): its annotations are also the image's labels.
		var a struct {
			Annotations map[string]string `json:"annotations"`
		}
		b, rerr := os.ReadFile(filepath.Join(dir, "metadata", "annotations.yaml"))
		if rerr != nil {
			return rerr
		}
		if err := yaml.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("metadata/annotations.yaml: %w", err)
		}
		labels = a.Annotations
		layer, err = tarLayer(map[string]string{"manifests": filepath.Join(dir, "manifests"), "metadata": filepath.Join(dir, "metadata")})
	}
	if err != nil {
		return err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture, cfg.Config.Labels = "linux", "amd64", labels
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		return err
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("%s: no certificate", caFile)
		}
		transport.TLSClientConfig = &tls.Config{RootCAs: pool}
	}
	if err := remote.Write(r, img, remote.WithTransport(transport)); err != nil {
		return err
	}
	d, err := img.Digest()
	if err != nil {
		return err
	}
	fmt.Println(d)
	return nil
}

// tarLayer: one uncompressed-then-gzipped layer holding each source folder under its target
// path, directories included, owned by root, in lexical order (the same files, the same digest).
func tarLayer(dirs map[string]string) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	targets := make([]string, 0, len(dirs))
	for t := range dirs {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, target := range targets {
		src := dirs[target]
		err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			n := path.Join(target, filepath.ToSlash(rel))
			info, err := e.Info()
			if err != nil {
				return err
			}
			if e.IsDir() {
				return tw.WriteHeader(&tar.Header{Name: n + "/", Typeflag: tar.TypeDir, Mode: 0o755})
			}
			if !info.Mode().IsRegular() {
				return nil
			}
			if err := tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: info.Size()}); err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(tw, f)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
}
