// An oracle for Go durations: Go's own time.ParseDuration, so that the TypeScript restatement
// (src/commands/shared/duration.ts) is checked against the parser kubectl and pflag use rather
// than against itself. Standard library only.
//
// Input: one JSON string per line. Output: one line per input, {"ns":"<int64 nanoseconds>"} or
// {"error":"<Go's error text>"}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var s string
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			fmt.Fprintln(os.Stderr, "not a JSON string:", err)
			os.Exit(2)
		}
		var answer map[string]string
		if d, err := time.ParseDuration(s); err != nil {
			answer = map[string]string{"error": err.Error()}
		} else {
			answer = map[string]string{"ns": strconv.FormatInt(int64(d), 10)}
		}
		line, _ := json.Marshal(answer)
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
