// adhoc-sign: signs a macOS (Mach-O) binary ad hoc, as `codesign --force --sign -` does, and
// reads a signature back, with github.com/blacktop/go-macho (from the Go module proxy; built
// once into $HOME/.cache/kubectl-ptah by krew/release-tools.mjs, like the lab's binaries).
//
//	adhoc-sign sign IN OUT   replace IN's signature by an ad-hoc one (identifier kubectl-ptah), write OUT
//	adhoc-sign show FILE     read FILE's signature with go-macho's parser and check it: one line, exit 0,
//	                         or the problems, exit 1
//
// `show` is the second reading of the signature, beside krew/inspect-binary.mjs's own
// verifyAdHocSignature: a CodeDirectory marked ad hoc, no CMS signature and no team, SHA-256 page
// hashes, and every page up to the code limit equal to its hash.
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"

	macho "github.com/blacktop/go-macho"
	"github.com/blacktop/go-macho/pkg/codesign"
	ctypes "github.com/blacktop/go-macho/pkg/codesign/types"
)

// sign writes OUT: IN with a new ad-hoc signature. go-macho computes the new load commands, the
// new __LINKEDIT and the signature over the file as it lies on disk; its Save, though, writes the
// segments back to back and so drops the gap postject leaves between its NODE_SEA segment and
// __LINKEDIT (every later byte would move). So the file is written here from IN's own bytes: the
// new header and load commands, IN unchanged up to __LINKEDIT, then go-macho's __LINKEDIT.
func sign(in, out string) error {
	orig, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	f, err := macho.NewFile(bytes.NewReader(orig))
	if err != nil {
		return err
	}
	defer f.Close()
	linkedit := f.Segment("__LINKEDIT")
	if linkedit == nil {
		return fmt.Errorf("%s: no __LINKEDIT segment", in)
	}
	firstData := uint64(len(orig))
	for _, seg := range f.Segments() {
		if seg.Name != "__LINKEDIT" && seg.Filesz > 0 && seg.Offset+seg.Filesz > linkedit.Offset {
			return fmt.Errorf("%s: segment %s lies after __LINKEDIT", in, seg.Name)
		}
	}
	for _, sec := range f.Sections {
		if sec.Offset > 0 && uint64(sec.Offset) < firstData {
			firstData = uint64(sec.Offset)
		}
	}
	// go-macho keeps the team of the signature it replaces; an ad-hoc signature has none.
	if cs := f.CodeSignature(); cs != nil {
		for i := range cs.CodeDirectories {
			cs.CodeDirectories[i].TeamID = ""
		}
	}
	if err := f.CodeSign(&codesign.Config{ID: "kubectl-ptah", Flags: ctypes.ADHOC}); err != nil {
		return fmt.Errorf("sign %s: %w", in, err)
	}
	var saved bytes.Buffer
	if err := f.SaveBuffer(&saved); err != nil {
		return err
	}
	b := saved.Bytes()
	headerEnd := 32 + uint64(f.ByteOrder.Uint32(b[20:24])) // mach_header_64 + sizeofcmds
	if headerEnd > firstData {
		return fmt.Errorf("%s: the load commands (%d bytes) would overwrite the first section at %d", in, headerEnd, firstData)
	}
	newLinkedit := f.Segment("__LINKEDIT")
	if newLinkedit.Offset != linkedit.Offset || uint64(len(b)) < newLinkedit.Filesz {
		return fmt.Errorf("%s: __LINKEDIT moved", in)
	}
	result := append(append(append([]byte{}, b[:headerEnd]...), orig[headerEnd:linkedit.Offset]...), b[uint64(len(b))-newLinkedit.Filesz:]...)
	return os.WriteFile(out, result, 0o755)
}

func show(file string) ([]string, string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, "", err
	}
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	cs := f.CodeSignature()
	if cs == nil {
		return []string{"no LC_CODE_SIGNATURE"}, "", nil
	}
	var problems []string
	if len(cs.Errors) > 0 {
		problems = append(problems, fmt.Sprintf("go-macho could not parse the signature: %v", cs.Errors))
	}
	if len(cs.CodeDirectories) == 0 {
		return append(problems, "no CodeDirectory"), "", nil
	}
	cd := cs.CodeDirectories[0]
	h := cd.Header
	if h.Flags&ctypes.ADHOC == 0 {
		problems = append(problems, fmt.Sprintf("the CodeDirectory's flags %#x lack adhoc", uint32(h.Flags)))
	}
	if len(cs.CMSSignature) > 0 {
		problems = append(problems, fmt.Sprintf("a CMS signature of %d bytes (ad hoc has none)", len(cs.CMSSignature)))
	}
	if cd.TeamID != "" {
		problems = append(problems, fmt.Sprintf("team %q (ad hoc has none)", cd.TeamID))
	}
	if h.HashType != 2 || h.HashSize != sha256.Size {
		return append(problems, fmt.Sprintf("hash type %d of %d bytes, expected SHA-256", h.HashType, h.HashSize)), "", nil
	}
	limit := uint64(h.CodeLimit)
	if cd.CodeLimit != 0 {
		limit = cd.CodeLimit
	}
	if limit != uint64(cs.Offset) {
		problems = append(problems, fmt.Sprintf("code limit %d, the signature starts at %d", limit, cs.Offset))
	}
	page := uint64(1) << h.PageSize
	if uint64(len(cd.CodeSlots)) != (limit+page-1)/page {
		problems = append(problems, fmt.Sprintf("%d code slots for %d bytes of %d-byte pages", len(cd.CodeSlots), limit, page))
	}
	bad := 0
	for i, slot := range cd.CodeSlots {
		start := uint64(i) * page
		end := min(start+page, limit, uint64(len(data)))
		if start >= end {
			bad++
			continue
		}
		sum := sha256.Sum256(data[start:end])
		if !bytes.Equal(sum[:], slot.Hash) {
			bad++
		}
	}
	if bad > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d pages do not match their hash", bad, len(cd.CodeSlots)))
	}
	return problems, fmt.Sprintf("ad-hoc signature: identifier %s, %d pages of %d bytes, SHA-256, every page matches its hash", cd.ID, len(cd.CodeSlots), page), nil
}

func main() {
	var err error
	switch {
	case len(os.Args) == 4 && os.Args[1] == "sign":
		err = sign(os.Args[2], os.Args[3])
	case len(os.Args) == 3 && os.Args[1] == "show":
		var problems []string
		var line string
		if problems, line, err = show(os.Args[2]); err == nil {
			if len(problems) > 0 {
				for _, p := range problems {
					fmt.Fprintln(os.Stderr, p)
				}
				os.Exit(1)
			}
			fmt.Println(line)
		}
	default:
		err = fmt.Errorf("usage: adhoc-sign sign IN OUT | adhoc-sign show FILE")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "adhoc-sign: %v\n", err)
		os.Exit(1)
	}
}
