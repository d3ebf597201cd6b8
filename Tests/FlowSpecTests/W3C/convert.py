#!/usr/bin/env python3
"""Convert W3C SCXML IRP .txml tests to the null datamodel.

Usage: python3 convert.py TXML_DIR OUT_DIR

For every TXML_DIR/*.txml that is a test (not a testNNNsubM.txml sub-document)
this prints either the path of the .scxml it wrote, or one line
"testNNN.txml: skipped: <first disqualifying construct>".

A test qualifies only if
  * every conf: attribute is one of conf:datamodel, conf:targetpass,
    conf:targetfail, conf:delay, conf:inState and every conf: element is
    conf:pass or conf:fail (the constructs with a datamodel-independent
    meaning that the null datamodel can express);
  * it has no <datamodel>, <data>, <assign>, <script>, <foreach>;
  * it has no expression attribute (expr, cond, location, namelist, ...)
    other than cond="In('id')";
  * (<parallel> is accepted since issue 24, <history> since issue 25: the
    simulation runs parallel and history states);
  * no <scxml> in it names a datamodel other than "null" in a plain
    datamodel="..." attribute (such tests are written for one datamodel,
    e.g. datamodel="xpath", instead of using conf:datamodel);
  * it has a <conf:pass/> (manual tests have none; sub-documents need none);
  * every sub-document it loads with <invoke src="file:...">
    also qualifies (it is then converted next to it).

The conversion is textual, so everything else in the file stays byte for
byte as in the .txml (comments, whitespace, line endings, the xmlns:conf
declaration). The mappings follow the W3C confEcma.xsl:
  conf:datamodel=""    -> datamodel="null"
  conf:targetpass=""   -> target="pass"
  conf:targetfail=""   -> target="fail"
  conf:delay="N"       -> delay="Ns"
  conf:inState="id"    -> cond="In('id')"
  <conf:pass/>         -> <final id="pass"/>
  <conf:fail/>         -> <final id="fail"/>
The onentry/log that the XSL adds to pass/fail is left out: its
expr="'pass'" is not an expression of the null datamodel.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SCXML = "{http://www.w3.org/2005/07/scxml}"
CONF = "{http://www.w3.org/2005/scxml-conformance}"

ALLOWED_CONF_ATTRS = {"datamodel", "targetpass", "targetfail", "delay", "inState"}
ALLOWED_CONF_ELEMS = {"pass", "fail"}
FORBIDDEN_ELEMS = {"datamodel", "data", "assign", "script", "foreach"}
# attributes whose value is an expression (or a location) of the datamodel
EXPR_ATTRS = {"expr", "cond", "location", "namelist", "idlocation", "array",
              "item", "index", "eventexpr", "targetexpr", "typeexpr",
              "delayexpr", "srcexpr", "sendidexpr"}
IN_PREDICATE = re.compile(r"^In\('[^']*'\)$")


def local(tag):
    return tag.split("}", 1)[1] if "}" in tag else tag


def first_problem(root, txml_dir, is_sub=False):
    """Return a description of the first disqualifying construct in document order, or None.

    is_sub: root is a sub-document loaded by <invoke src="file:...">; those end in
    their own <final> and need no <conf:pass/>.
    """
    has_pass = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue  # comments / processing instructions
        name = local(el.tag)
        if el.tag.startswith(CONF):
            if name not in ALLOWED_CONF_ELEMS:
                return "uses <conf:%s>" % name
            if name == "pass":
                has_pass = True
        elif name in FORBIDDEN_ELEMS:
            return "uses <%s>" % name
        if name == "scxml" and el.attrib.get("datamodel", "null") != "null":
            return "fixed datamodel=\"%s\"" % el.attrib["datamodel"]
        for attr, value in el.attrib.items():
            aname = local(attr)
            if attr.startswith(CONF):
                if aname not in ALLOWED_CONF_ATTRS:
                    return "uses conf:%s" % aname
            elif "}" in attr:
                continue  # xml:* or other namespaced attributes
            elif aname in EXPR_ATTRS:
                if aname == "cond" and IN_PREDICATE.match(value):
                    continue
                return "uses %s=\"%s\" on <%s>" % (aname, value, name)
        if name == "invoke" and "src" in el.attrib:
            src = el.attrib["src"]
            if not src.startswith("file:"):
                return "uses <invoke src=\"%s\">" % src
            sub = os.path.splitext(src[len("file:"):])[0] + ".txml"
            sub_path = os.path.join(txml_dir, sub)
            if not os.path.exists(sub_path):
                return "needs sub-document %s, not obtained" % sub
            problem = first_problem(parse(sub_path), txml_dir, is_sub=True)
            if problem:
                return "sub-document %s: %s" % (sub, problem)
    if root.tag == SCXML + "scxml" and not has_pass and not is_sub:
        return "no <conf:pass/> (manual test)"
    return None


def parse(path):
    return ET.parse(path).getroot()


def convert_text(text):
    text = text.replace('conf:datamodel=""', 'datamodel="null"')
    text = text.replace('conf:targetpass=""', 'target="pass"')
    text = text.replace('conf:targetfail=""', 'target="fail"')
    text = re.sub(r'conf:delay="([^"]*)"', r'delay="\1s"', text)
    text = re.sub(r'conf:inState="([^"]*)"', lambda m: "cond=\"In('%s')\"" % m.group(1), text)
    text = re.sub(r'<conf:pass\s*/>', '<final id="pass"/>', text)
    text = re.sub(r'<conf:fail\s*/>', '<final id="fail"/>', text)
    if "conf:" in text.replace('xmlns:conf=', ''):
        raise ValueError("conf: construct left after conversion")
    return text


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def sub_documents(root):
    for el in root.iter(SCXML + "invoke"):
        src = el.attrib.get("src", "")
        if src.startswith("file:"):
            yield os.path.splitext(src[len("file:"):])[0] + ".txml"


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: convert.py TXML_DIR OUT_DIR\n")
        return 2
    txml_dir, out_dir = argv[1], argv[2]
    os.makedirs(out_dir, exist_ok=True)
    names = sorted(n for n in os.listdir(txml_dir)
                   if n.endswith(".txml") and not re.search(r"sub\d+\.txml$", n))
    for name in names:
        path = os.path.join(txml_dir, name)
        try:
            root = parse(path)
        except ET.ParseError as e:
            print("%s: skipped: not well-formed XML (%s)" % (name, e))
            continue
        problem = first_problem(root, txml_dir)
        if problem:
            print("%s: skipped: %s" % (name, problem))
            continue
        for sub in sub_documents(root):
            out = os.path.join(out_dir, sub[:-len(".txml")] + ".scxml")
            write(out, convert_text(read(os.path.join(txml_dir, sub))))
            print(out)
        out = os.path.join(out_dir, name[:-len(".txml")] + ".scxml")
        write(out, convert_text(read(path)))
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
