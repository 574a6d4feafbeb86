// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

import "strings"

// filesystemDeclaration covers every tool of
// @modelcontextprotocol/server-filesystem 2026.8.31 (its tools/list). The
// listing tools (list_directory, directory_tree, search_files,
// get_file_info) return names and metadata, never content, so they are
// reads of the directory they name, as list_dir is. move_file removes
// the file at source, so it declares fileDelete besides writing both
// paths. create_directory writes its path. The server resolves a
// relative path against its first allowed directory (or the client's
// roots), not its working directory, so relative paths are refused: the
// model is told to give an absolute one.
const filesystemDeclaration = `version: 1
server: filesystem
relative: deny
tools:
  read_file: {as: read_file, paths: [path]}
  read_text_file: {as: read_file, paths: [path]}
  read_media_file: {as: read_file, paths: [path]}
  read_multiple_files: {as: read_file, paths: [paths]}
  write_file: {as: write_file, paths: [path]}
  edit_file: {as: edit_file, paths: [path]}
  create_directory: {as: write_file, paths: [path]}
  list_directory: {as: list_dir, paths: [path]}
  list_directory_with_sizes: {as: list_dir, paths: [path]}
  directory_tree: {as: list_dir, paths: [path]}
  search_files: {as: list_dir, paths: [path]}
  get_file_info: {as: list_dir, paths: [path]}
  move_file: {as: write_file, paths: [source, destination], classes: [fileDelete]}
  list_allowed_directories: {as: list_dir}
`

// builtins are the declarations shipped with Warden, by name.
var builtins = map[string]string{
	"filesystem": filesystemDeclaration,
}

// Builtin returns the declaration shipped under name ("filesystem"), or
// false.
func Builtin(name string) (*Declaration, bool) {
	src, ok := builtins[name]
	if !ok {
		return nil, false
	}
	d, err := ParseDeclaration("(built-in "+name+")", []byte(src))
	if err != nil {
		panic("internal error: built-in declaration " + name + ": " + err.Error())
	}
	return d, true
}

// BuiltinFor returns the built-in declaration of the server a command
// line starts, if Warden ships one: the filesystem server's package
// (@modelcontextprotocol/server-filesystem, by name or by a path into
// it) selects "filesystem".
func BuiltinFor(argv []string) (string, bool) {
	for _, a := range argv {
		if strings.Contains(a, "@modelcontextprotocol/server-filesystem") ||
			strings.Contains(a, "/server-filesystem/") || strings.HasSuffix(a, "/server-filesystem") ||
			a == "mcp-server-filesystem" || strings.HasSuffix(a, "/mcp-server-filesystem") {
			return "filesystem", true
		}
	}
	return "", false
}
