module kubectl-ptah/krew/adhoc-sign

go 1.26

require github.com/blacktop/go-macho v1.1.296

require github.com/blacktop/go-dwarf v1.1.0 // indirect
