// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"fmt"

	"warden.dev/warden/internal/shellparse"
)

// Analyse a command that hides a push in an inline program: the literal
// command python passes to os.system is analysed as shell, so the push
// is found, with its ref, beside the code that runs unanalysed.
func ExampleAnalyze() {
	an := shellparse.Analyze(`cd src && python3 -c 'import os; os.system("git push origin HEAD:main")'`,
		shellparse.Options{Cwd: "/home/ada/shop", Home: "/home/ada"})
	fmt.Println("classes:", an.Classes)
	fmt.Println("refs:", an.Refs)
	fmt.Println("flags:", an.Flags)
	for _, inv := range an.Invocations {
		fmt.Println("runs:", inv.Argv, "code:", inv.RunsCode)
	}
	// Output:
	// classes: [gitPush processSpawn]
	// refs: [HEAD:main]
	// flags: [runs_code]
	// runs: [cd src] code: false
	// runs: [python3 -c import os; os.system("git push origin HEAD:main")] code: true
	// runs: [git push origin HEAD:main] code: false
}
