module kubectl-ptah.test/oracle/duration

go 1.22
