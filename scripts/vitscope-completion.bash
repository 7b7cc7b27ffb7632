# bash completion for vitscope (installed as share/bash-completion/completions/vitscope).
# Completes the subcommands, each one's flags, --question's names, model
# folders after --model and photos elsewhere. Keep in step with `vitscope --help`.
_vitscope() {
    local cur prev words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    }
    local commands="classify attention export info explain sweep tour lesson dump exercises train help version"
    local common="--model --size --help"
    local sub="" w
    for w in "${words[@]:1:cword-1}"; do
        case " $commands " in *" $w "*) sub=$w; break ;; esac
    done
    case $prev in
        --model|--frames|--tour-dir)
            COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -o|--csv|--claims|--screenshot|--state-file|--frame-stats|--script|--tour|--compare|--exercises|--key|--check-gradients)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --question)
            COMPREPLY=($(compgen -W "scaling heads quadratic cls global dynamic permutation position cross matrix mlp relevance rollout ablation perturbation" -- "$cur")); return ;;
        --colormap)
            COMPREPLY=($(compgen -W "viridis magma turbo" -- "$cur")); return ;;
        --query)
            COMPREPLY=($(compgen -W "cls" -- "$cur")); return ;;
        --task)
            COMPREPLY=($(compgen -W "same_colour left_of" -- "$cur")); return ;;
        --arrays)
            COMPREPLY=($(compgen -W "photo input attn q k v out pos_embed logits residual_in residual_out ln1 attn_proj residual_mid ln2 mlp grad_attn grad_x_in grad_x_out" -- "${cur##*,}")); return ;;
        --layer|--head|--top|--size|--patch|--select|--seed|--class|--delay|--frame-size|--path|--sizes|--window-size|--ui-scale|--steps|--threads|--lr)
            return ;;
    esac
    local flags
    case $sub in
        classify)  flags="$common --top -o --csv --force" ;;
        attention) flags="$common --layer --head --mean-heads --patch --query -o --csv --force" ;;
        export)    flags="$common --layer --head --mean-heads --patch --query -o --colormap --force" ;;
        info)      flags="--model --help" ;;
        explain)   flags="$common --question --layer --head --mean-heads --patch --query --compare --class --seed --sizes --csv -o --force" ;;
        sweep)     flags="$common --layer --head --mean-heads -o --path --frame-size --delay --frames --colormap --dither --force" ;;
        tour)      flags="$common --tour -o --claims --csv --force --layer --head --mean-heads --patch --query --class --seed --classroom --window-size" ;;
        lesson)    flags="$common -o --tour --no-tour --layer --head --mean-heads --patch --query --exercises --force" ;;
        dump)      flags="$common -o --arrays --float16 --class --force" ;;
        exercises) flags="$common --exercises --key -o --force" ;;
        train)     flags="--task -o --steps --seed --no-position --threads --lr --check-gradients --force --help" ;;
        help|version) return ;;
        "")        flags="--model --select --layer --head --mean-heads --window-size --ui-scale --no-settings --screenshot --state-file --frame-stats --script --quit --tour --classroom --help" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -z $sub && $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur") $(compgen -f -X '!*.@(jpg|jpeg|png|webp|JPG|JPEG|PNG|WEBP|vitscope)' -- "$cur") $(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.@(jpg|jpeg|png|webp|JPG|JPEG|PNG|WEBP)' -- "$cur") $(compgen -d -- "$cur"))
    fi
}
shopt -s extglob 2>/dev/null
complete -o filenames -F _vitscope vitscope
