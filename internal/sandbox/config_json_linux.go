// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"warden.dev/warden/internal/jsonw"
)

// JSON strings are UTF-8: encoding/json writes each byte of a string
// that is not valid UTF-8 as U+FFFD. A path of the host that is not
// UTF-8 (a name in Latin-1, a directory an agent named so) reached init
// as another path: a bind init then refused, but a mask it did not find
// and skipped, so a secret below such a name was left readable. The
// configuration carries such a string, and one that begins with NUL
// (no path, argument or variable can hold a NUL), as a NUL followed by
// the string's base64; decodeConfig undoes it.

// wireString is s as the configuration carries it.
func wireString(s string) string {
	if utf8.ValidString(s) && !strings.HasPrefix(s, "\x00") {
		return s
	}
	return "\x00" + base64.StdEncoding.EncodeToString([]byte(s))
}

// wireStrings is v as the configuration carries it; v itself when no
// string needs another form.
func wireStrings(v []string) []string {
	for i, s := range v {
		if w := wireString(s); w != s {
			out := append([]string(nil), v...)
			out[i] = w
			for j := i + 1; j < len(out); j++ {
				out[j] = wireString(out[j])
			}
			return out
		}
	}
	return v
}

// readString undoes wireString.
func readString(s *string) error {
	rest, ok := strings.CutPrefix(*s, "\x00")
	if !ok {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return errors.New("a string that is not in the form the parent writes")
	}
	*s = string(b)
	return nil
}

// decodeConfig reads a configuration as marshal wrote it.
func decodeConfig(b []byte) (config, error) {
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		return config{}, err
	}
	var err error
	c.eachString(func(s *string) {
		if e := readString(s); e != nil && err == nil {
			err = e
		}
	})
	return c, err
}

// eachString calls f with every string the configuration holds.
func (c *config) eachString(f func(*string)) {
	for _, v := range [][]string{c.Argv, c.Env, c.Masks, c.AllowSyscalls, c.Readable, c.Idmapped} {
		for i := range v {
			f(&v[i])
		}
	}
	for _, s := range []*string{&c.Project, &c.Dir, &c.Home, &c.FailAt, &c.ResolvConf, &c.CgroupV2} {
		f(s)
	}
	for i := range c.Binds {
		f(&c.Binds[i].Path)
	}
	for i := range c.CommandRlimits {
		f(&c.CommandRlimits[i].Name)
	}
	for i := range c.CgroupJoin {
		f(&c.CgroupJoin[i].Dir)
	}
}

// marshal encodes the configuration, each string as wireString gives
// it, as encoding/json would without its HTML escaping, by hand: every
// run sends it twice, and encoding/json's first use of the type is a
// walk of it by reflection in a process that runs once
// (TestConfigMarshalAsReflection compares the two). A terminal's
// configuration, for a run at a person's terminal, holds no string and
// is left to encoding/json.
func (c *config) marshal() ([]byte, error) {
	w := jsonw.NewWriter(make([]byte, 0, 2048))
	w.Open()
	w.Strs("argv", wireStrings(c.Argv))
	w.Strs("env", wireStrings(c.Env))
	w.Str("project", wireString(c.Project))
	w.Str("dir", wireString(c.Dir))
	w.Bool("writable", c.Writable)
	w.BoolOmit("full_access", c.FullAccess)
	jsonw.List(w, "binds", c.Binds, (*bind).fields)
	w.StrOmit("home", wireString(c.Home))
	w.Strs("masks", wireStrings(c.Masks))
	w.StrOmit("fail_at", wireString(c.FailAt))
	jsonw.ListOmit(w, "command_rlimits", c.CommandRlimits, (*rlimit).fields)
	w.IntOmit("tmpfs_size", c.TmpfsSize)
	w.IntOmit("tmpfs_inodes", c.TmpfsInodes)
	w.StrsOmit("allow_syscalls", wireStrings(c.AllowSyscalls))
	w.BoolOmit("network", c.Network)
	w.StrOmit("resolv_conf", wireString(c.ResolvConf))
	w.BoolOmit("exec_scratch", c.ExecScratch)
	w.BoolOmit("no_landlock", c.NoLandlock)
	w.BoolOmit("watch_connect", c.WatchConnect)
	w.Strs("readable", wireStrings(c.Readable))
	w.BoolOmit("no_seccomp", c.NoSeccomp)
	w.BoolOmit("host_id", c.HostID)
	w.StrsOmit("idmapped", wireStrings(c.Idmapped))
	w.StrOmit("cgroup_v2", wireString(c.CgroupV2))
	jsonw.ListOmit(w, "cgroup_join", c.CgroupJoin, (*cgroupJoin).fields)
	w.BoolOmit("cgroup_leave", c.CgroupLeave)
	w.BoolOmit("trace", c.Trace)
	if c.Terminal != nil {
		b, err := json.Marshal(c.Terminal)
		if err != nil {
			return nil, err
		}
		w.Key("terminal")
		w.Raw(b)
	}
	w.Close()
	return w.Bytes()
}

func (b *bind) fields(w *jsonw.Writer) {
	w.Str("path", wireString(b.Path))
	w.BoolOmit("writable", b.Writable)
	w.BoolOmit("dir", b.Dir)
	w.UintOmit("dev", b.Dev)
	w.UintOmit("ino", b.Ino)
}

func (r *rlimit) fields(w *jsonw.Writer) {
	w.Str("name", wireString(r.Name))
	w.Int("resource", int64(r.Resource))
	w.Uint("value", r.Value)
}

func (j *cgroupJoin) fields(w *jsonw.Writer) {
	w.Str("dir", wireString(j.Dir))
	w.BoolOmit("optional", j.Optional)
}
