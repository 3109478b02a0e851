package local

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestInputsByIdentity: Files.Inputs keeps each file once, by device and
// inode, under the name first given, lists the other names in Dropped,
// and names the rules' sources by the kept names.
func TestInputsByIdentity(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if err := os.MkdirAll("d/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"d/a.txt", "d/sub/b.txt"} {
		if err := os.WriteFile(f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("d", "dl"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("d/a.txt", "hard.txt"); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(root, "d")
	for _, tc := range []struct {
		name     string
		files    Files
		want     []string
		dropped  []string
		sysFiles []string // the first system's sources
	}{
		{"spellings", Files{Paths: []string{"d", "./d/", "d/../d", abs}},
			[]string{"d/a.txt", "d/sub/b.txt"}, []string{abs + "/a.txt (= d/a.txt)", abs + "/sub/b.txt (= d/sub/b.txt)"}, nil},
		{"links", Files{Paths: []string{"hard.txt", "dl", "d"}},
			[]string{"hard.txt", "dl/sub/b.txt"}, []string{"dl/a.txt (= hard.txt)", "d/a.txt (= hard.txt)", "d/sub/b.txt (= dl/sub/b.txt)"}, nil},
		{"system by another name", Files{Paths: []string{"d"}, Systems: Systems{{Name: "x", Path: "hard.txt"}}},
			[]string{"d/a.txt", "d/sub/b.txt"}, []string{"hard.txt (= d/a.txt)"}, []string{"d/a.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := tc.files.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(in.Files, tc.want) || !reflect.DeepEqual(in.Dropped, tc.dropped) {
				t.Fatalf("files %q dropped %q, want %q %q", in.Files, in.Dropped, tc.want, tc.dropped)
			}
			if tc.sysFiles != nil && !reflect.DeepEqual(in.Rules[0].Sources, tc.sysFiles) {
				t.Fatalf("system sources %q, want %q", in.Rules[0].Sources, tc.sysFiles)
			}
		})
	}
}
