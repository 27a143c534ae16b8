"""A stand-in for the judging world, for tests: one reply in the protocol that
``judge.judge_exercise`` reads, made in a plain namespace.

``bleu-lesson check`` judges every exercise in ``bleu_lesson.grading.world``, where the
reference does not exist; this is the judging cell earlier versions sent to the learner's
kernel (which could borrow the reference or forge the reply), kept here so that tests can
send a learner's answer through the trusted judge without starting a sandbox. It looks
the answer up by name, makes the library functions the exercise asks for unavailable
while the answer runs, calls it on the cases and returns JSON of plain values.
"""
def __bleu_lesson_judge__(name, kind, forbidden, cases_json, marker):
    import importlib
    import json
    import types
    ns = globals()
    try:  # inside: this runs as a cell in a plain namespace standing in for the world
        from bleu_lesson.core.stats import BleuStats
    except Exception:
        BleuStats = None  # type: ignore[assignment, misc]
    # the world's own coding: the stand-in reads and sends values exactly as the world does
    from bleu_lesson.grading.world_child import Unserialisable, decode, encode
    def enc(x):
        return encode(x, BleuStats)
    def dec(x):
        return decode(x, BleuStats)
    def resolve(dotted):
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
            return obj
        raise ImportError(dotted)
    def reply(**kw):
        return json.dumps(kw)
    if name not in ns:
        return reply(status="missing")
    answer = ns[name]
    if answer is ... or answer is NotImplemented:
        return reply(status="not-done")
    if kind == "function" and not callable(answer):
        return reply(status="not-callable", type=type(answer).__name__)
    try:
        module = getattr(answer, "__module__", None)
    except Exception:
        module = None
    if isinstance(module, str) and (module == "bleu_lesson" or module.startswith("bleu_lesson.")):
        qualname = str(getattr(answer, "__qualname__", "?"))
        return reply(status="library", name=module + "." + qualname)
    # The originals' code objects are kept nowhere: an answer can walk up to this frame
    # (sys._getframe) and would rebuild the real function from them. Only the stubbed
    # function objects are listed; afterwards each gets its code back compiled afresh
    # from its module's source, inline below (a helper here would be an oracle).
    stubbed = []
    copied = False
    for dotted in forbidden:
        try:
            func = resolve(dotted)
        except Exception:
            continue
        func = getattr(func, "__func__", func)
        func = getattr(func, "__wrapped__", func)  # under @checks: the taught function itself
        if not isinstance(func, types.FunctionType) or func.__closure__:
            continue
        try:
            copied = copied or getattr(answer, "__code__", None) == func.__code__
        except Exception:
            pass
        stub_ns = {}  # type: ignore[var-annotated]
        exec("def stub(*args, **kwargs):\n    raise RuntimeError(%r)\n"
             % (marker + dotted + " is the function this exercise asks you to write; it "
                "is unavailable while your answer is judged"), {}, stub_ns)
        func.__code__ = stub_ns["stub"].__code__
        stubbed.append(func)
    func = stub_ns = None  # type: ignore[assignment]
    try:
        if copied:
            return reply(status="library", name="a copy of a library function")
        if kind == "value":
            try:
                return reply(status="value", value=enc(answer))
            except Unserialisable as exc:
                return reply(status="unserialisable", type=str(exc))
        results = []  # type: ignore[var-annotated]
        for case in json.loads(cases_json):
            args = dec(case)
            try:
                got = answer(*args)
            except NotImplementedError:
                return reply(status="not-done", results=results)
            except Exception as exc:
                text = str(exc)
                if marker in text:
                    return reply(status="forbidden", index=len(results),
                                 name=text.split(marker, 1)[1].split(" ", 1)[0],
                                 results=results)
                return reply(status="raised", index=len(results), type=type(exc).__name__,
                             message=text[:500], results=results)
            if got is ... or got is NotImplemented:
                return reply(status="not-done", results=results)
            try:
                value = enc(got)
            except Unserialisable as exc:
                return reply(status="unserialisable", index=len(results), type=str(exc),
                             results=results)
            try:
                after = enc(list(args))
            except Unserialisable:
                after = None
            results.append({"value": value, "after": after})
        return reply(status="done", results=results)
    finally:
        import importlib.util
        for func in stubbed:
            try:
                spec = importlib.util.find_spec(func.__module__)
                todo = [("", compile(spec.loader.get_source(func.__module__), spec.origin,  # type: ignore[arg-type, union-attr]
                                     "exec"))]
                fresh = []
                while todo:  # (qualname prefix, code): class bodies and functions nest
                    prefix, code = todo.pop()
                    for c in code.co_consts:
                        if isinstance(c, types.CodeType):
                            if prefix + c.co_name == func.__qualname__:
                                fresh.append(c)
                            todo.append((prefix + c.co_name + ".", c))
                func.__code__ = fresh[-1]
            except Exception:
                pass  # the library stays stubbed in this kernel: only this notebook suffers
