// registry: the real cluster's image registry, and the pusher of its images, both on
// go-containerregistry (its in-memory OCI distribution registry, pkg/registry, and its image
// library: mutate, remote). No home-made registry or image format: only the files of an image.
//
//	registry serve --addr 127.0.0.1:PORT --tls-cert FILE --tls-key FILE
//	registry push-catalog --ca FILE DIR REF   # DIR's files under /configs, labelled as an FBC index
//	registry push-bundle --ca FILE DIR REF    # DIR as a registry+v1 bundle: manifests/, metadata/
//	registry push-bundles --ca FILE           # each stdin line "DIR<TAB>REF" as push-bundle does
//	registry pull --ca FILE REF DIR           # the image's files (its layers, flattened) into DIR
//
// A push prints the image's digest; push-bundles prints "REF<TAB>DIGEST" per line, in the input's
// order. `pull` is what a container runtime does before a container starts: it fetches the image
// (linux/amd64 from an index) and lays out its filesystem; scripts/cluster-unpack.ts runs it for
// OLM's bundle unpack pods. The registry keeps everything in memory: a new start is empty.
package main

import (
	"archive/tar"
	"bufio"
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
	"strings"
	"sync"

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
		transport, err := transportFor(*ca)
		if err != nil {
			log.Fatalf("registry %s: %v", os.Args[1], err)
		}
		d, err := push(os.Args[1] == "push-catalog", fl.Arg(0), fl.Arg(1), transport)
		if err != nil {
			log.Fatalf("registry %s: %v", os.Args[1], err)
		}
		fmt.Println(d)
	case "push-bundles":
		ca := fl.String("ca", "", "CA that signed the registry's certificate (PEM)")
		_ = fl.Parse(os.Args[2:])
		transport, err := transportFor(*ca)
		if err != nil {
			log.Fatalf("registry push-bundles: %v", err)
		}
		if err := pushBundles(os.Stdin, transport); err != nil {
			log.Fatalf("registry push-bundles: %v", err)
		}
	case "pull":
		ca := fl.String("ca", "", "CA that signed the registry's certificate (PEM)")
		_ = fl.Parse(os.Args[2:])
		if fl.NArg() != 2 {
			log.Fatal("usage: registry pull --ca FILE REF DIR")
		}
		transport, err := transportFor(*ca)
		if err != nil {
			log.Fatalf("registry pull: %v", err)
		}
		d, err := pull(fl.Arg(0), fl.Arg(1), transport)
		if err != nil {
			// The whole error on one line, as a runtime reports a failed pull.
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(d)
	default:
		log.Fatalf("registry: unknown command %q", os.Args[1])
	}
}

func push(catalog bool, dir, ref string, transport http.RoundTripper) (v1.Hash, error) {
	r, err := name.ParseReference(ref, name.StrictValidation)
	if err != nil {
		return v1.Hash{}, err
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
			return v1.Hash{}, rerr
		}
		if err := yaml.Unmarshal(b, &a); err != nil {
			return v1.Hash{}, fmt.Errorf("metadata/annotations.yaml: %w", err)
		}
		labels = a.Annotations
		layer, err = tarLayer(map[string]string{"manifests": filepath.Join(dir, "manifests"), "metadata": filepath.Join(dir, "metadata")})
	}
	if err != nil {
		return v1.Hash{}, err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return v1.Hash{}, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return v1.Hash{}, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture, cfg.Config.Labels = "linux", "amd64", labels
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		return v1.Hash{}, err
	}
	if err := remote.Write(r, img, remote.WithTransport(transport)); err != nil {
		return v1.Hash{}, err
	}
	return img.Digest()
}

// pull fetches the image at ref (the linux/amd64 image of an index, as a node of that platform
// would) and writes its filesystem, every layer applied in order with whiteouts honoured
// (go-containerregistry's mutate.Extract), into dir; it answers the image's digest. Only
// directories and regular files are written, and only inside dir: an image is the catalog's
// content, so a link or a path that climbs out of dir is left out rather than followed.
func pull(ref, dir string, transport http.RoundTripper) (v1.Hash, error) {
	r, err := name.ParseReference(ref, name.StrictValidation)
	if err != nil {
		return v1.Hash{}, err
	}
	platform := v1.Platform{OS: "linux", Architecture: "amd64"}
	img, err := remote.Image(r, remote.WithTransport(transport), remote.WithPlatform(platform))
	if err != nil {
		return v1.Hash{}, err
	}
	digest, err := img.Digest()
	if err != nil {
		return v1.Hash{}, err
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return v1.Hash{}, err
	}
	fsys := mutate.Extract(img)
	defer fsys.Close()
	tr := tar.NewReader(fsys)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return digest, nil
		}
		if err != nil {
			return v1.Hash{}, err
		}
		rel := path.Clean("/" + h.Name)[1:]
		if rel == "" {
			continue
		}
		target := filepath.Join(root, filepath.FromSlash(rel))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return v1.Hash{}, err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return v1.Hash{}, err
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return v1.Hash{}, err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return v1.Hash{}, err
			}
		}
	}
}

// transportFor: HTTPS trusting only the given CA (the system's roots when none is given).
func transportFor(caFile string) (http.RoundTripper, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if caFile == "" {
		return transport, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no certificate", caFile)
	}
	transport.TLSClientConfig = &tls.Config{RootCAs: pool}
	return transport, nil
}

// pushBundles pushes every "DIR<TAB>REF" line of in, a few at a time over one transport (a
// catalog has hundreds of bundles: one process and TLS handshake each cost more than the push),
// and prints "REF<TAB>DIGEST" lines in the input's order. The first failure ends it.
func pushBundles(in io.Reader, transport http.RoundTripper) error {
	type job struct{ dir, ref string }
	var jobs []job
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		dir, ref, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			return fmt.Errorf("line %q: want DIR<TAB>REF", sc.Text())
		}
		jobs = append(jobs, job{dir, ref})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	digests := make([]v1.Hash, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				digests[i], errs[i] = push(false, jobs[i].dir, jobs[i].ref, transport)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, j := range jobs {
		if errs[i] != nil {
			return fmt.Errorf("%s %s: %w", j.dir, j.ref, errs[i])
		}
		fmt.Printf("%s\t%s\n", j.ref, digests[i])
	}
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
