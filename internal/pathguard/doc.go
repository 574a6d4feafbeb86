// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package pathguard resolves the paths an agent names the way the kernel
// would, and decides which of them touch the sensitive floor.
//
// The policy engine is pure: it never touches the filesystem. Every path
// facet therefore passes through a [Resolver] first, which turns the raw
// string into an [action.Path] the engine can trust: Lexical (what the user
// meant), Resolved (what the kernel would reach), Sensitive (the floor
// entry it matched), Err (why it could not be resolved), and, when the
// path reaches the project through an alias, InLexical and InResolved
// (the same two spelt under the project). The engine denies a path that
// is sensitive, has Err set, or was not Checked.
//
// # Resolution
//
// [Resolver.Resolve] works in three steps.
//
//  1. Expansion. A leading ~, ~user, $HOME or ${HOME} is replaced by the
//     home directory. Nothing else is expanded: any other $VAR, and $HOME
//     anywhere but at the start, stays literal, because a tool that is not a
//     shell passes the bytes to open(2) as they are. Shell commands are
//     expanded by shell analysis before their paths get here. A relative
//     path is then made absolute against [Resolver.Cwd], the agent's working
//     directory.
//
//  2. The walk. The absolute path is walked one component at a time, as
//     namei does: each component is lstat'ed; a symbolic link is read and
//     its target spliced in front of the rest (an absolute target restarts
//     at /, a relative one continues from the directory that holds the
//     link); ".." removes the last component of the path resolved so far.
//     The string is never cleaned before the walk, because cleaning
//     changes what it names: with link -> /a/b/c, the kernel opens
//     link/../x as /a/b/x, while filepath.Clean would make it ./x, inside
//     the project, and a rule written for the project would allow it.
//
//     Dangling links are followed: open(O_CREAT) creates the file where the
//     link points, so a "new file" named project/notes can be a write to
//     ~/.bashrc. Once a component does not exist (or is not a directory),
//     the rest of the path is appended lexically; a later ".." still walks
//     back and resumes real lookups, so the result is what the path would
//     name if the missing directories were created.
//
//     A final link is followed for every access, a delete included: unlink
//     would remove the link itself, but a tool may delete through it, and
//     the link itself is checked separately (see below).
//
//     At most 40 links are followed, as in Linux; more is a loop. The
//     magic links of the agent's own process are not read from Warden's
//     /proc, which describes Warden, not the agent: a hook is a process
//     of its own, and /proc/self in a hook payload is the process of the
//     agent that opens the path. /proc/self/root and
//     /proc/thread-self/root are /, as an agent is not chrooted;
//     /proc/self/cwd is [Resolver.Cwd], the working directory of the
//     tool call, which the hook payload carries; and /proc/<Resolver.PID>
//     is /proc/self. Other entries of /proc/self (fd, exe, ...) cannot be
//     known from outside the agent and are kept as written, under
//     /proc/self. Links of other processes (/proc/<pid>/cwd) are read
//     like any link.
//
//     Cwd is where /proc/self/cwd most likely leads, not where it surely
//     does. In a shell command /proc/self is whichever process opens the
//     path, whose cwd is Cwd only until something changes directory:
//     shell analysis makes /proc/self/cwd/... relative, so that it follows
//     cd like any relative path, and a link met later that leads to
//     /proc/self/cwd is never an alias (ResolveShell). An agent CLI's own
//     file tools open the path in its own process, whose cwd need not be
//     the tool call's (Claude Code keeps the session's working directory
//     apart from its process's). So the floor judges Cwd, but a path
//     through /proc/self/cwd is never an alias of the project (below).
//
//  3. The floor. The sensitive set ([SensitiveSet] plus [Resolver.Extra])
//     is matched, case-insensitively, against the lexical path, the link
//     itself and the resolved path; then the device and inode of the
//     resolved file, and of each directory on the way to it, are compared
//     with those of the known secrets under the home directory. Links among
//     those secrets are followed when they are recorded: with ~/.ssh/config
//     a link into a dotfiles repository, that repository file is what ssh
//     reads, and it is sensitive too.
//
// # Aliases of the project
//
// With [Resolver.Project] set, a path that reaches the project through an
// alias is the project's: a link to the project or into it (~/src ->
// /data/src, the project itself opened as /home/u/link/proj), the
// agent's /proc/self/root, a bind mount of the project. The resolver then fills in InLexical and InResolved, the path
// as written and the real path spelt under the project, and the engine
// judges "inside the project" on those. A spelling is changed only when
// it is proven to name the same file:
//
//   - InLexical: the path as written is walked again, recording where
//     the walk stands after each of its components; the first leading
//     part that the kernel resolves into the project is replaced by what
//     it resolves to. The rest is kept as written, so the names the
//     rules see are still the names the agent gave.
//   - InResolved, and InLexical through a bind: a directory on the way
//     with the device and inode of the project is a bind mount of it, and
//     the path under it is the project's when every component after it
//     is, by device and inode, the same file under the bind and under the
//     project (a directory mounted over one of them is not); a missing
//     tail is the same when it is missing on both sides. The work is two
//     lstat calls per component, once.
//
// The converse stays safe, because the real path is judged too: a path
// that looks inside but resolves outside (a link in the project to /etc,
// to ~/.ssh, ".." after a link) has a real path outside the project, or
// sensitive, and no alias changes that. Nothing is ever re-spelt out of
// the project, and the spellings under the project are checked against
// the sensitive set as well. A walk through a working directory is no
// alias: the agent's /proc/self/cwd may be elsewhere than Cwd (see the
// walk above), and another process's /proc/<pid>/cwd, like its root and
// open files, changes with no file operation. Such a path asks as a
// write outside the project does.
//
// # Why every form is checked
//
// The lexical path catches a name used as bait: a symlink named .env that
// points at an innocent file is still a request for ".env", and deleting it
// touches a secret's name. The link itself (the final component's own
// directory entry, in its resolved directory) is what unlink(2) and
// rename(2) replace, so deleting or atomically rewriting a link that lives
// in ~/.ssh is caught even when it points elsewhere. The resolved path
// catches an innocent name that leads to a secret (project/notes ->
// ~/.ssh/id_rsa). The device and inode catch what no name reveals: a hard
// link to ~/.ssh/id_rsa inside the project, or a bind mount of ~/.ssh.
// Case is ignored because macOS and case-folding ext4 directories open
// .SSH/ID_RSA as .ssh/id_rsa.
//
// # Recursive reads
//
// A read of a whole tree (grep -r, a Grep call, tar, cp -r) reaches files
// that no path of the request names. [SensitiveUnder] walks such a tree,
// at most [MaxWalk] entries, and lists what the floor must judge: the
// sensitive names in it, and the regular files with several links (and,
// for a caller that resolves them, the directories), which only their
// device and inode can show to be a secret. A tree too large to walk
// yields a path that no resolution accepts, so the read is denied.
//
// # Errors
//
// Anything the kernel would refuse, or that the walk cannot see through, is
// reported in [action.Path.Err] as a short lower-case message, and the
// engine denies: a NUL byte, a path or name too long, too many links, a
// permission error while walking, an unknown ~user. A component that does
// not exist, or that is not a directory but is used as one, is not an
// error. When Err is set, Resolved is empty.
//
// # Limits
//
// Resolution happens before the action runs; a path can change in between.
// The sandbox, not this package, is what holds when that race is won.
// Bind mounts of procfs other than /proc are walked as ordinary links, and
// names are compared by Unicode case folding without normalisation (NFC and
// NFD spellings differ). On systems other than Linux there are no device
// and inode checks ([DetectsHardLinks] is false); the name checks remain,
// and a bind mount of the project is not recognised as the project.
//
// An alias is recognised for the project itself: a bind mount of one of
// its subdirectories elsewhere is outside (the safe side; knowing every
// directory's identity would mean walking the project). A path as written
// whose cleaned form leaves the alias with ".." (link/../x, where link
// leads into the project) is judged as written, outside, even when the
// kernel reaches the project.
package pathguard
