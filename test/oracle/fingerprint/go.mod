module kubectl-ptah.test/oracle/fingerprint

go 1.22
