package shellparse_test

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"warden.dev/warden/internal/shellparse"
)

func TestZZDbg(t *testing.T) {
	f, err := os.Open("/tmp/gitdbg/cmds")
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		an := shellparse.Analyze(sc.Text(), corpusOpts)
		fmt.Printf("$ %s\n%sunresolved: %s\n\n", sc.Text(), describe(an), an.Unresolved)
	}
}
