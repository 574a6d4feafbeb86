module warden.dev/warden

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/rogpeppe/go-internal v1.16.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/tools v0.52.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/landlock-lsm/go-landlock v0.11.2
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
)

require kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
