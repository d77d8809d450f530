// `kubectl ptah completion bash|zsh|fish|kubectl`: shell completion scripts. Every script asks
// the plugin's hidden `__complete` command (Cobra's protocol, src/cli/complete.ts), so the
// candidates are the same in every shell and through kubectl's own plugin completion.
//
// - kubectl: the `kubectl_complete-ptah` helper that kubectl >= 1.26 runs for `kubectl ptah <TAB>`
//   when kubectl's own completion is enabled. Put it on PATH, executable.
// - bash, zsh, fish: completion for the `kubectl-ptah` executable called directly.
import { UsageError } from "../../errors.ts";
import { words } from "../shared/candidates.ts";
import type { CommandBody } from "../command-types.ts";
import { OFFLINE } from "../shared/permissions.ts";

export type Shell = "bash" | "zsh" | "fish" | "kubectl";
export const SHELLS: readonly Shell[] = ["bash", "zsh", "fish", "kubectl"];

export interface CompletionOptions {
  readonly shell: Shell;
}

/** The `kubectl_complete-ptah` helper; also shipped in the release archives. */
export const KUBECTL_COMPLETE_SCRIPT = `#!/usr/bin/env sh
# kubectl (1.26 or later) runs this helper for \`kubectl ptah <TAB>\`; it must be on PATH and executable.
exec kubectl ptah __complete "$@"
`;

const BASH = `# bash completion for kubectl-ptah (the plugin called directly).
# Load it with:  source <(kubectl-ptah completion bash)
# For \`kubectl ptah <TAB>\` use kubectl's completion and the helper from \`kubectl ptah completion kubectl\`.
_kubectl_ptah_complete() {
    local line="\${COMP_LINE:0:COMP_POINT}" cur="" out directive=0 value word prefix=""
    local -a words lines
    read -r -a words <<< "$line"
    if [[ -z "$line" || "$line" =~ [[:space:]]$ ]]; then
        cur=""
    else
        cur="\${words[\${#words[@]}-1]}"
        unset "words[\${#words[@]}-1]"
    fi
    out=$("\${words[0]}" __complete "\${words[@]:1}" "$cur" 2>/dev/null) || return 0
    mapfile -t lines <<< "$out"
    if [[ "\${lines[\${#lines[@]}-1]}" =~ ^:([0-9]+)$ ]]; then
        directive="\${BASH_REMATCH[1]}"
        unset "lines[\${#lines[@]}-1]"
    fi
    (( directive & 1 )) && return 0
    # --flag=value: the candidates are values; bash replaces only what follows "=" when "=" breaks words.
    word="$cur"
    if [[ "$cur" == -*=* ]]; then
        word="\${cur#*=}"
        [[ "$COMP_WORDBREAKS" == *"="* ]] || prefix="\${cur%%=*}="
    fi
    COMPREPLY=()
    for value in "\${lines[@]}"; do
        value="\${value%%$'\\t'*}"
        [[ -n "$value" && "$value" == "$word"* ]] && COMPREPLY+=("$prefix$value")
    done
    (( directive & 2 )) && compopt -o nospace 2>/dev/null
    if (( \${#COMPREPLY[@]} == 0 && (directive & 4) == 0 )); then
        compopt -o default 2>/dev/null
    fi
    return 0
}
complete -F _kubectl_ptah_complete kubectl-ptah
`;

const ZSH = `#compdef kubectl-ptah
# zsh completion for kubectl-ptah (the plugin called directly).
# Load it with:  source <(kubectl-ptah completion zsh)   (after compinit)
_kubectl_ptah() {
    local cur="\${words[CURRENT]}" out directive=0 line value desc
    local -a lines candidates opts
    out="$(\${words[1]} __complete "\${(@)words[2,CURRENT-1]}" "$cur" 2>/dev/null)" || return 1
    lines=("\${(@f)out}")
    if [[ "\${lines[-1]}" == :<-> ]]; then
        directive="\${lines[-1]#:}"
        lines=("\${(@)lines[1,-2]}")
    fi
    (( directive & 1 )) && return 1
    [[ "$cur" == -*=* ]] && compset -P '*='
    for line in "\${lines[@]}"; do
        [[ -z "$line" ]] && continue
        value="\${line%%$'\\t'*}"
        desc=""
        [[ "$line" == *$'\\t'* ]] && desc="\${line#*$'\\t'}"
        value="\${value//:/\\\\:}"
        if [[ -n "$desc" ]]; then candidates+=("$value:$desc"); else candidates+=("$value"); fi
    done
    (( directive & 2 )) && opts=(-S '')
    if (( \${#candidates} > 0 )); then
        _describe -t kubectl-ptah 'kubectl ptah' candidates "\${opts[@]}"
    elif (( (directive & 4) == 0 )); then
        _files
    else
        return 1
    fi
}
if [[ "$funcstack[1]" == "_kubectl_ptah" ]]; then
    _kubectl_ptah "$@"
else
    compdef _kubectl_ptah kubectl-ptah
fi
`;

const FISH = `# fish completion for kubectl-ptah (the plugin called directly).
# Load it with:  kubectl-ptah completion fish | source
function __kubectl_ptah_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($words[1] __complete $words[2..-1] "$cur" 2>/dev/null)
    or return
    set -l directive 0
    if string match -qr '^:[0-9]+$' -- $out[-1]
        set directive (string sub -s 2 -- $out[-1])
        set -e out[-1]
    end
    test (math "$directive % 2") -eq 1; and return
    set -l prefix ''
    if string match -qr '^-[^=]*=' -- $cur
        set prefix (string replace -r '=.*' '=' -- $cur)
    end
    if test (count $out) -eq 0; and test (math "floor($directive / 4) % 2") -eq 0
        __fish_complete_path $cur
        return
    end
    for line in $out
        test -n "$line"; and printf '%s%s\\n' $prefix $line
    end
end
complete -c kubectl-ptah -f -a '(__kubectl_ptah_complete)'
`;

export function completionScript(shell: Shell): string {
  switch (shell) {
    case "bash":
      return BASH;
    case "zsh":
      return ZSH;
    case "fish":
      return FISH;
    case "kubectl":
      return KUBECTL_COMPLETE_SCRIPT;
  }
}

const NAME = "completion";

export const completionCommand: CommandBody<CompletionOptions> = {
  positionals: [{ name: "SHELL", complete: words(SHELLS) }],
  outputs: [],
  examples: [
    {
      comment: "Enable `kubectl ptah <TAB>` (kubectl 1.26+ with kubectl's completion on): put the helper on PATH",
      command: "kubectl ptah completion kubectl > ~/.local/bin/kubectl_complete-ptah && chmod +x ~/.local/bin/kubectl_complete-ptah",
    },
    { comment: "Complete `kubectl-ptah` called directly, in bash", command: "source <(kubectl ptah completion bash)" },
    { comment: "The same in zsh (after compinit)", command: "source <(kubectl ptah completion zsh)" },
    { comment: "The same in fish", command: "kubectl ptah completion fish | source" },
  ],
  flags: [],
  // completion reads no cluster and prints no view: no global flag applies to it.
  hiddenGlobals: ["kubeconfig", "context", "namespace", "all-namespaces", "output", "selector", "no-headers", "color", "request-timeout", "timeout"],
  permissions: [{ form: "completion SHELL", argv: ["completion", "bash"], rules: [], note: OFFLINE }],
  toOptions(args) {
    if (args.positionals.length !== 1) throw new UsageError("name one shell: bash, zsh, fish or kubectl", NAME);
    const shell = args.positionals[0]!;
    if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unsupported shell "${shell}": use bash, zsh, fish or kubectl`, NAME);
    return { shell: shell as Shell };
  },
  async run(options) {
    return { kind: "printed", stdout: completionScript(options.shell) };
  },
};
