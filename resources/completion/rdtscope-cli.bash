# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for rdtscope-cli, installed to share/bash-completion/completions/rdtscope-cli.
# Commands and options come from the program's own --help at completion time, so they never drift from it;
# scenario and preset names from `rdtscope-cli sim --list`.

_rdtscope_cli_commands()
{
    "$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

_rdtscope_cli_options()
{
    "$1" "$2" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

_rdtscope_cli_sim_names()
{
    # "presets" or "scenarios": the names listed under that heading of `sim --list`
    "$1" sim --list 2>/dev/null | awk -v want="$2" '/^[a-z]/ { on = index($0, want) == 1; next } on { print $1 }'
}

_rdtscope_cli()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} prog=${COMP_WORDS[0]}
    COMPREPLY=()
    # The command is the first word after the global options (--connect URL, --agent PATH).
    local i=1 command=
    while ((i < COMP_CWORD)); do
        case ${COMP_WORDS[i]} in
            --connect | --agent) ((i += 2)) ;;
            --connect=* | --agent=*) ((i += 1)) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done

    case $prev in
        --connect) mapfile -t COMPREPLY < <(compgen -W 'ssh:// unix: local' -- "$cur"); compopt -o nospace 2>/dev/null; return ;;
        --source) mapfile -t COMPREPLY < <(compgen -W 'auto sim sim-msr resctrl msr perf' -- "$cur"); return ;;
        --scenario) mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_sim_names "$prog" scenarios)" -f -- "$cur"); return ;;
        --preset | --machine) mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_sim_names "$prog" presets)" -- "$cur"); return ;;
        --sysfs | --symfs) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
        --agent | --cpuid-dump | --save-cpuid | --sim-cpuid | -o | --output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    esac

    if [ -z "$command" ]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W '--connect --agent --help --version' -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_commands "$prog")" -- "$cur")
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_options "$prog" "$command")" -- "$cur")
        return
    fi
    # The word right after these commands is an action, not a file.
    if ((COMP_CWORD == i + 1)); then
        case $command in
            alloc) mapfile -t COMPREPLY < <(compgen -W 'show set' -- "$cur"); return ;;
            groups) mapfile -t COMPREPLY < <(compgen -W 'list create delete assign' -- "$cur"); return ;;
            pmu) mapfile -t COMPREPLY < <(compgen -W 'tma lbr mem' -- "$cur"); return ;;
        esac
    fi
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _rdtscope_cli rdtscope-cli
