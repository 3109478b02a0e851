package loadverdict_test

// Tests of the deployment files at the root of the repository: template.yaml
// (AWS SAM), the Makefile targets it builds with, and the sample events
// under events/. The template is loaded with goformation, which applies the
// SAM types and resolves intrinsic functions against the parameters'
// defaults; the raw YAML is read as well where the resolved form hides what
// matters (references to the bucket resource).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/cloudformation/glue"
	"github.com/awslabs/goformation/v7/cloudformation/serverless"
	"github.com/awslabs/goformation/v7/intrinsics"
	"gopkg.in/yaml.v3"

	"github.com/loadverdict/loadverdict/internal/catalog"
	"github.com/loadverdict/loadverdict/results/columnar"
)

const templateFile = "template.yaml"

// The two Lambda functions and the folder of each one's main package.
var functionDirs = map[string]string{
	"IngestFunction":    "./functions/ingest",
	"ReanalyzeFunction": "./functions/reanalyze",
}

// The prefixes of the bucket layout (docs/ARCHITECTURE.md) a policy may name.
var layoutPrefixes = []string{"raw/", "tables/", "reports/", "rejected/"}

// What goformation's pseudo parameters make of the default bucket name,
// <stack name>-<account id>-<region>.
const defaultBucket = "goformation-stack-123456789012-us-east-1"

// loadTemplate parses template.yaml with the given parameter overrides.
// References that goformation cannot resolve (to resources rather than
// parameters) become "Ref:<LogicalId>" and "GetAtt:<LogicalId>.<Attribute>",
// so the tests can see what they point at.
func loadTemplate(t *testing.T, params map[string]any) *cloudformation.Template {
	t.Helper()
	tmpl, err := goformation.OpenWithOptions(templateFile, processorOptions(params))
	if err != nil {
		t.Fatalf("%s: %v", templateFile, err)
	}
	return tmpl
}

func processorOptions(params map[string]any) *intrinsics.ProcessorOptions {
	return &intrinsics.ProcessorOptions{
		EvaluateConditions: true,
		ParameterOverrides: params,
		IntrinsicHandlerOverrides: map[string]intrinsics.IntrinsicHandler{
			"Ref": func(name string, input, template any) any {
				if v := intrinsics.Ref(name, input, template); v != nil {
					return v
				}
				if id, ok := input.(string); ok && id != "AWS::NoValue" {
					return "Ref:" + id
				}
				return nil
			},
			"Fn::GetAtt": func(name string, input, template any) any {
				switch v := input.(type) {
				case string:
					return "GetAtt:" + v
				case []any:
					parts := make([]string, len(v))
					for i, p := range v {
						parts[i] = fmt.Sprint(p)
					}
					return "GetAtt:" + strings.Join(parts, ".")
				}
				return nil
			},
		},
	}
}

// loadGeneric returns the template with intrinsics resolved as above, as
// plain maps: for the properties goformation has no types for (ScheduleV2).
func loadGeneric(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	out, err := intrinsics.ProcessYAML(data, processorOptions(nil))
	if err != nil {
		t.Fatalf("%s: %v", templateFile, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// dig walks nested maps along keys.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// strs turns a string or a list of strings (IAM's Action, Resource) into a list.
func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func function(t *testing.T, tmpl *cloudformation.Template, name string) *serverless.Function {
	t.Helper()
	fn, err := tmpl.GetServerlessFunctionWithName(name)
	if err != nil {
		t.Fatalf("%s: %v", templateFile, err)
	}
	return fn
}

// makeTargets parses the Makefile into target -> recipe lines.
func makeTargets(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string][]string{}
	var cur []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
			for _, name := range cur {
				targets[name] = append(targets[name], strings.TrimSpace(line))
			}
		case strings.Contains(line, ":") && !strings.HasPrefix(line, "#") && !strings.Contains(line, "=") && !strings.HasPrefix(line, "."):
			cur = strings.Fields(line[:strings.Index(line, ":")])
			for _, name := range cur {
				if _, ok := targets[name]; !ok {
					targets[name] = nil
				}
			}
		case strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#"):
			cur = nil
		}
	}
	return targets
}

var functionPkgRE = regexp.MustCompile(`\./functions/[A-Za-z0-9_-]+`)

func TestTemplateFunctions(t *testing.T) {
	tmpl := loadTemplate(t, nil)
	targets := makeTargets(t)
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatalf("CodeUri . must hold the one go.mod: %v", err)
	}
	timeouts := map[string]int{"IngestFunction": 300, "ReanalyzeFunction": 900}

	for name, dir := range functionDirs {
		t.Run(name, func(t *testing.T) {
			fn := function(t, tmpl, name)
			if got := str(fn.Runtime); got != "provided.al2023" {
				t.Errorf("Runtime = %q, want provided.al2023", got)
			}
			if !slices.Equal(fn.Architectures, []string{"arm64"}) {
				t.Errorf("Architectures = %v, want [arm64]", fn.Architectures)
			}
			if got := str(fn.Handler); got != "bootstrap" {
				t.Errorf("Handler = %q, want bootstrap", got)
			}
			if fn.CodeUri == nil || str(fn.CodeUri.String) != "." {
				t.Errorf("CodeUri = %+v, want . (the root go.mod)", fn.CodeUri)
			}
			if got := fn.AWSCloudFormationMetadata["BuildMethod"]; got != "makefile" {
				t.Errorf("Metadata.BuildMethod = %v, want makefile", got)
			}
			if fn.MemorySize == nil || *fn.MemorySize != 512 {
				t.Errorf("MemorySize = %v, want 512 (the parameter's default)", fn.MemorySize)
			}
			if fn.Timeout == nil || *fn.Timeout != timeouts[name] {
				t.Errorf("Timeout = %v, want %d", fn.Timeout, timeouts[name])
			}
			if fn.ReservedConcurrentExecutions != nil {
				t.Errorf("ReservedConcurrentExecutions = %d: uploads are meant to run in parallel", *fn.ReservedConcurrentExecutions)
			}
			if fn.Environment == nil || fn.Environment.Variables["LOADVERDICT_BUCKET"] != defaultBucket {
				t.Errorf("Environment = %+v, want LOADVERDICT_BUCKET=%s", fn.Environment, defaultBucket)
			}
			checkFailureDestination(t, tmpl, fn)

			target := "build-" + name
			recipe, ok := targets[target]
			if !ok {
				t.Fatalf("Makefile has no target %s (BuildMethod makefile)", target)
			}
			cmd := strings.Join(recipe, "\n")
			for _, want := range []string{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0", "go build", "-tags lambda.norpc", "-o $(ARTIFACTS_DIR)/bootstrap"} {
				if !strings.Contains(cmd, want) {
					t.Errorf("Makefile %s: recipe %q lacks %q", target, cmd, want)
				}
			}
			pkgs := functionPkgRE.FindAllString(cmd, -1)
			if len(pkgs) != 1 || pkgs[0] != dir {
				t.Fatalf("Makefile %s builds %v, want %s", target, pkgs, dir)
			}
			t.Run("code path", func(t *testing.T) {
				info, err := os.Stat(filepath.FromSlash(dir))
				if err != nil {
					t.Skipf("%s (named in Makefile %s) does not exist yet: %v", dir, target, err)
				}
				if !info.IsDir() {
					t.Fatalf("%s is not a directory", dir)
				}
				if m, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go")); len(m) == 0 {
					t.Errorf("%s holds no Go files", dir)
				}
			})
		})
	}

	// Every function built with a Makefile has its target, and there are no
	// functions the tests above do not know about.
	for name, fn := range tmpl.GetAllServerlessFunctionResources() {
		if _, ok := functionDirs[name]; !ok {
			t.Errorf("function %s is not covered by this test", name)
		}
		if fn.AWSCloudFormationMetadata["BuildMethod"] == "makefile" {
			if _, ok := targets["build-"+name]; !ok {
				t.Errorf("Makefile has no target build-%s", name)
			}
		}
	}
	for _, target := range []string{"build", "test", "clean"} {
		if _, ok := targets[target]; !ok {
			t.Errorf("Makefile has no target %s", target)
		}
	}
}

// checkFailureDestination asserts that failed asynchronous invocations go to
// an SQS queue of the template: a DeadLetterQueue or an OnFailure destination.
func checkFailureDestination(t *testing.T, tmpl *cloudformation.Template, fn *serverless.Function) {
	t.Helper()
	var arn string
	switch {
	case fn.EventInvokeConfig != nil && fn.EventInvokeConfig.DestinationConfig != nil && fn.EventInvokeConfig.DestinationConfig.OnFailure != nil:
		d := fn.EventInvokeConfig.DestinationConfig.OnFailure
		if str(d.Type) != "SQS" {
			t.Errorf("OnFailure.Type = %q, want SQS", str(d.Type))
		}
		arn = d.Destination
	case fn.DeadLetterQueue != nil:
		if fn.DeadLetterQueue.Type != "SQS" {
			t.Errorf("DeadLetterQueue.Type = %q, want SQS", fn.DeadLetterQueue.Type)
		}
		arn = fn.DeadLetterQueue.TargetArn
	default:
		t.Errorf("no DeadLetterQueue and no EventInvokeConfig OnFailure destination")
		return
	}
	id, ok := strings.CutPrefix(arn, "GetAtt:")
	id, ok2 := strings.CutSuffix(id, ".Arn")
	if !ok || !ok2 {
		t.Errorf("failure destination %q is not !GetAtt <Queue>.Arn of this template", arn)
		return
	}
	if _, err := tmpl.GetSQSQueueWithName(id); err != nil {
		t.Errorf("failure destination: %v", err)
	}
}

func TestTemplateEvents(t *testing.T) {
	tmpl := loadTemplate(t, nil)

	ingest := function(t, tmpl, "IngestFunction")
	var s3Events int
	for name, ev := range ingest.Events {
		if ev.Type != "S3" {
			t.Errorf("IngestFunction event %s: Type %s, want S3 only", name, ev.Type)
			continue
		}
		s3Events++
		e := ev.Properties.S3Event
		if e == nil {
			t.Fatalf("IngestFunction event %s: properties are not an S3 event", name)
		}
		id, ok := strings.CutPrefix(e.Bucket, "Ref:")
		if !ok {
			t.Errorf("event %s: Bucket %q, want !Ref to the template's bucket", name, e.Bucket)
		} else if _, err := tmpl.GetS3BucketWithName(id); err != nil {
			t.Errorf("event %s: %v", name, err)
		}
		var events []string
		if e.Events != nil {
			if e.Events.String != nil {
				events = []string{*e.Events.String}
			} else if e.Events.StringArray != nil {
				events = *e.Events.StringArray
			}
		}
		// Created: ingest it; removed: remove its tables.
		if !slices.Equal(events, []string{"s3:ObjectCreated:*", "s3:ObjectRemoved:*"}) {
			t.Errorf("event %s: Events %v, want [s3:ObjectCreated:* s3:ObjectRemoved:*]", name, events)
		}
		if e.Filter == nil || e.Filter.S3Key == nil ||
			!reflect.DeepEqual(e.Filter.S3Key.Rules, []serverless.Function_S3KeyFilterRule{{Name: "prefix", Value: "raw/"}}) {
			t.Errorf("event %s: Filter %+v, want the one rule prefix=raw/", name, e.Filter)
		}
	}
	if s3Events != 1 {
		t.Errorf("IngestFunction has %d S3 events, want 1", s3Events)
	}

	// goformation has no type for ScheduleV2: read its properties untyped.
	reanalyze := function(t, tmpl, "ReanalyzeFunction")
	generic := loadGeneric(t)
	var schedules int
	for name, ev := range reanalyze.Events {
		if ev.Type != "ScheduleV2" {
			t.Errorf("ReanalyzeFunction event %s: Type %s, want ScheduleV2 only", name, ev.Type)
			continue
		}
		schedules++
		props := dig(generic, "Resources", "ReanalyzeFunction", "Properties", "Events", name, "Properties")
		if got := dig(props, "ScheduleExpression"); got != "rate(1 day)" {
			t.Errorf("event %s: ScheduleExpression %v, want the parameter's default rate(1 day)", name, got)
		}
		input, _ := dig(props, "Input").(string)
		sameJSON(t, "ScheduleV2 Input", []byte(input), "events/schedule.json")
	}
	if schedules != 1 {
		t.Errorf("ReanalyzeFunction has %d ScheduleV2 events, want 1", schedules)
	}
}

// sameJSON asserts that got is the JSON document in file.
func sameJSON(t *testing.T, what string, got []byte, file string) {
	t.Helper()
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s %q: %v", what, got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s as in %s", what, got, bytes.TrimSpace(want), file)
	}
}

func TestTemplatePolicies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]any
		bucket string
	}{
		{"default bucket name", nil, defaultBucket},
		{"BucketName given", map[string]any{"BucketName": "my-results"}, "my-results"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := loadTemplate(t, tc.params)
			b, err := tmpl.GetS3BucketWithName("ResultsBucket")
			if err != nil {
				t.Fatal(err)
			}
			if got := str(b.BucketName); got != tc.bucket {
				t.Fatalf("BucketName = %q, want %q", got, tc.bucket)
			}
			for name := range functionDirs {
				checkPolicies(t, name, function(t, tmpl, name), tc.bucket)
			}
		})
	}
}

// checkPolicies asserts that fn's inline statements name only the bucket and
// its layout prefixes, never write or delete raw/, delete only in tables/
// and rejected/, and still grant what the pipeline needs.
func checkPolicies(t *testing.T, name string, fn *serverless.Function, bucket string) {
	t.Helper()
	if fn.Policies == nil || fn.Policies.IAMPolicyDocumentArray == nil {
		t.Errorf("%s: Policies is not a list of inline policy documents: %+v", name, fn.Policies)
		return
	}
	bucketARN := "arn:aws:s3:::" + bucket
	granted := map[string][]string{} // action -> resources
	for _, doc := range *fn.Policies.IAMPolicyDocumentArray {
		for i, raw := range doc.Statement {
			st, ok := raw.(map[string]any)
			if !ok {
				t.Errorf("%s: statement %d is %T", name, i, raw)
				continue
			}
			if st["Effect"] != "Allow" {
				continue
			}
			actions := strs(st["Action"])
			resources := strs(st["Resource"])
			s3Actions := slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "s3:") })
			for _, a := range actions {
				if strings.Contains(a, "*") {
					t.Errorf("%s: statement %v: wildcard action %q", name, st["Sid"], a)
				}
			}
			for _, r := range resources {
				isS3 := strings.HasPrefix(r, "arn:aws:s3:::")
				if s3Actions && !isS3 {
					t.Errorf("%s: statement %v: S3 actions on non-S3 resource %q", name, st["Sid"], r)
					continue
				}
				if !isS3 {
					continue
				}
				rest, ok := strings.CutPrefix(r, bucketARN)
				if !ok || (rest != "" && !slices.Contains(layoutPrefixes, strings.TrimPrefix(strings.TrimSuffix(rest, "*"), "/"))) || (rest != "" && !strings.HasSuffix(rest, "/*")) {
					t.Errorf("%s: statement %v: resource %q is neither %s nor %s/{raw,tables,reports,rejected}/*", name, st["Sid"], r, bucketARN, bucketARN)
					continue
				}
				for _, a := range actions {
					granted[a] = append(granted[a], strings.TrimPrefix(rest, "/"))
				}
				if rest == "" && !slices.Equal(actions, []string{"s3:ListBucket"}) {
					t.Errorf("%s: statement %v: bucket-level actions %v, want only s3:ListBucket", name, st["Sid"], actions)
				}
				if rest == "" && st["Condition"] != nil {
					// A prefix condition would make S3 answer reads of missing
					// keys with 403, not 404 (see template.yaml).
					t.Errorf("%s: statement %v: s3:ListBucket must not carry a condition", name, st["Sid"])
				}
			}
		}
	}
	for _, a := range []string{"s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"} {
		if slices.Contains(granted[a], "raw/*") {
			t.Errorf("%s: %s granted on raw/*: uploads must never be modified", name, a)
		}
	}
	for _, r := range granted["s3:DeleteObject"] {
		if r != "tables/*" && r != "rejected/*" {
			t.Errorf("%s: s3:DeleteObject granted on %q, want only tables/* and rejected/*", name, r)
		}
	}
	// Each function is granted exactly what it does (issue 11 item 10):
	// no more, so a grant it never uses fails here, and no less.
	want, ok := functionGrants[name]
	if !ok {
		t.Errorf("%s: no expected grants in functionGrants", name)
		return
	}
	for a := range granted {
		slices.Sort(granted[a])
		granted[a] = slices.Compact(granted[a])
	}
	for a, rs := range want {
		if !slices.Equal(granted[a], rs) {
			t.Errorf("%s: %s granted on %q, want %q", name, a, granted[a], rs)
		}
	}
	for a, rs := range granted {
		if _, ok := want[a]; !ok {
			t.Errorf("%s: %s granted on %q, which the function never does", name, a, rs)
		}
	}
}

// functionGrants are the S3 actions each function performs, with the
// layout prefixes it performs them on ("" is the bucket itself), sorted:
//
//   - both functions read uploads (GET, and HEAD, which s3:GetObject
//     allows) and list the bucket;
//   - the ingest writes table files, commit records and rejection
//     records, reads them back for the analysis, deletes replaced
//     generations and stale rejection records, and writes the report; it
//     never reads reports/;
//   - the re-analysis does the same, because its repair ingests uploads
//     again and removes the tables of deleted uploads, and it also reads
//     reports/ (covers.json, to find stale reports);
//   - multipart uploads (aborted on failure) happen for table files and
//     reports, never for the small rejection records.
var functionGrants = map[string]map[string][]string{
	"IngestFunction": {
		"s3:GetObject":            {"raw/*", "rejected/*", "tables/*"},
		"s3:PutObject":            {"rejected/*", "reports/*", "tables/*"},
		"s3:DeleteObject":         {"rejected/*", "tables/*"},
		"s3:AbortMultipartUpload": {"reports/*", "tables/*"},
		"s3:ListBucket":           {""},
		"sqs:SendMessage":         nil,
	},
	"ReanalyzeFunction": {
		"s3:GetObject":            {"raw/*", "rejected/*", "reports/*", "tables/*"},
		"s3:PutObject":            {"rejected/*", "reports/*", "tables/*"},
		"s3:DeleteObject":         {"rejected/*", "tables/*"},
		"s3:AbortMultipartUpload": {"reports/*", "tables/*"},
		"s3:ListBucket":           {""},
		"sqs:SendMessage":         nil,
	},
}

// TestTemplateGluePartitions checks that the ingest function may register
// partitions in the stack's Glue database, and only that (one action on
// the catalog, the database and its tables), that it is told the
// database, and that the re-analysis function has no Glue permission.
func TestTemplateGluePartitions(t *testing.T) {
	m := loadGeneric(t)
	res, _ := m["Resources"].(map[string]any)
	glueStatements := func(fn string) []map[string]any {
		var out []map[string]any
		pols, _ := dig(res, fn, "Properties", "Policies").([]any)
		for _, pol := range pols {
			sts, _ := dig(pol, "Statement").([]any)
			for _, st := range sts {
				stm, _ := st.(map[string]any)
				for _, a := range strs(stm["Action"]) {
					if strings.HasPrefix(a, "glue:") {
						out = append(out, stm)
						break
					}
				}
			}
		}
		return out
	}
	sts := glueStatements("IngestFunction")
	if len(sts) != 1 {
		t.Fatalf("IngestFunction: %d Glue statements, want 1", len(sts))
	}
	st := sts[0]
	if a := strs(st["Action"]); !slices.Equal(a, []string{"glue:BatchCreatePartition"}) || st["Effect"] != "Allow" {
		t.Errorf("IngestFunction: Glue actions %v (%v), want only glue:BatchCreatePartition", a, st["Effect"])
	}
	// goformation resolves ${GlueDatabase} (a resource) in a Sub to "":
	// the resolved ARNs say the rest, the raw YAML names the database.
	want := []string{"arn:aws:glue:us-east-1:123456789012:catalog", "arn:aws:glue:us-east-1:123456789012:database/", "arn:aws:glue:us-east-1:123456789012:table//*"}
	if rs := strs(st["Resource"]); !slices.Equal(rs, want) {
		t.Errorf("IngestFunction: Glue resources %v, want %v with the stack's database", rs, want)
	}
	raw, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{`:database/${GlueDatabase}"`, `:table/${GlueDatabase}/*"`} {
		if !strings.Contains(string(raw), r) {
			t.Errorf("%s: no Glue resource ending in %s", templateFile, r)
		}
	}
	if v := dig(res, "IngestFunction", "Properties", "Environment", "Variables", "LOADVERDICT_GLUE_DATABASE"); fmt.Sprint(v) != "Ref:GlueDatabase" {
		t.Errorf("IngestFunction: LOADVERDICT_GLUE_DATABASE = %v, want !Ref GlueDatabase", v)
	}
	if sts := glueStatements("ReanalyzeFunction"); len(sts) != 0 {
		t.Errorf("ReanalyzeFunction: Glue statements %v, want none", sts)
	}
}

// TestTemplateNoBucketReferenceFromFunctions guards against the circular
// dependency bucket notification -> permission -> function -> role ->
// bucket: the functions' properties other than their S3 event name the
// bucket by the parameter-built string, never by the resource.
func TestTemplateNoBucketReferenceFromFunctions(t *testing.T) {
	data, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	resources := mapValue(mapValue(&doc, "Resources"), "")
	if resources == nil {
		t.Fatal("no Resources")
	}
	var buckets []string
	for i := 0; i+1 < len(resources.Content); i += 2 {
		if v := mapValue(resources.Content[i+1], "Type"); v != nil && v.Value == "AWS::S3::Bucket" {
			buckets = append(buckets, resources.Content[i].Value)
		}
	}
	if len(buckets) == 0 {
		t.Fatal("no AWS::S3::Bucket")
	}
	for i := 0; i+1 < len(resources.Content); i += 2 {
		name, res := resources.Content[i].Value, resources.Content[i+1]
		if v := mapValue(res, "Type"); v == nil || v.Value != "AWS::Serverless::Function" {
			continue
		}
		props := mapValue(res, "Properties")
		for j := 0; props != nil && j+1 < len(props.Content); j += 2 {
			if props.Content[j].Value == "Events" {
				continue // the S3 event must name the bucket resource
			}
			walk(props.Content[j+1], func(n *yaml.Node) {
				for _, b := range buckets {
					if n.Kind == yaml.ScalarNode && (n.Value == b || strings.HasPrefix(n.Value, b+".") || strings.Contains(n.Value, "${"+b)) {
						t.Errorf("%s.%s refers to the bucket resource %s (line %d): use the parameter-built name to avoid a circular dependency",
							name, props.Content[j].Value, b, n.Line)
					}
				}
			})
		}
	}
}

// mapValue returns the value of key in a mapping node (the document's root
// mapping for a document node and key ""), or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if key == "" {
		return n
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func walk(n *yaml.Node, f func(*yaml.Node)) {
	f(n)
	for _, c := range n.Content {
		walk(c, f)
	}
}

func TestTemplateBucket(t *testing.T) {
	tmpl := loadTemplate(t, nil)
	b, err := tmpl.GetS3BucketWithName("ResultsBucket")
	if err != nil {
		t.Fatal(err)
	}
	p := b.PublicAccessBlockConfiguration
	if p == nil {
		t.Fatal("no PublicAccessBlockConfiguration")
	}
	for what, v := range map[string]*bool{
		"BlockPublicAcls": p.BlockPublicAcls, "BlockPublicPolicy": p.BlockPublicPolicy,
		"IgnorePublicAcls": p.IgnorePublicAcls, "RestrictPublicBuckets": p.RestrictPublicBuckets,
	} {
		if v == nil || !*v {
			t.Errorf("PublicAccessBlockConfiguration.%s is not true", what)
		}
	}
	if b.BucketEncryption == nil || len(b.BucketEncryption.ServerSideEncryptionConfiguration) == 0 ||
		b.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault == nil {
		t.Error("no default encryption")
	} else if alg := b.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm; alg != "AES256" && alg != "aws:kms" {
		t.Errorf("SSEAlgorithm = %q", alg)
	}
	if b.VersioningConfiguration == nil || b.VersioningConfiguration.Status != "Enabled" {
		t.Errorf("VersioningConfiguration = %+v, want Enabled", b.VersioningConfiguration)
	}
	var expires bool
	if b.LifecycleConfiguration != nil {
		for _, r := range b.LifecycleConfiguration.Rules {
			if r.Status == "Enabled" && (r.NoncurrentVersionExpiration != nil || r.NoncurrentVersionExpirationInDays != nil) {
				expires = true
			}
		}
	}
	if !expires {
		t.Error("no enabled lifecycle rule expiring noncurrent versions")
	}

	outputs := []string{"BucketName", "IngestFunctionArn", "ReanalyzeFunctionArn", "GlueDatabase"}
	for _, o := range outputs {
		if _, ok := tmpl.Outputs[o]; !ok {
			t.Errorf("no output %s", o)
		}
	}
	for name, want := range map[string]any{"ScheduleExpression": "rate(1 day)", "MemorySize": 512.0} {
		if p, ok := tmpl.Parameters[name]; !ok || p.Default != want {
			t.Errorf("parameter %s = %+v, want default %v", name, p, want)
		}
	}
	for _, name := range []string{"BucketName", "LogRetention"} {
		if _, ok := tmpl.Parameters[name]; !ok {
			t.Errorf("no parameter %s", name)
		}
	}
}

// schemaColumn is a column of a table in docs/SCHEMA.md.
type schemaColumn struct{ name, typ string }

// schemaTables reads the column names of the four tables from docs/SCHEMA.md:
// the markdown table under "## Table `runs`" (with its types), and the
// backquoted names of the first paragraph under the other tables' headings.
func schemaTables(t *testing.T) map[string][]schemaColumn {
	t.Helper()
	data, err := os.ReadFile("docs/SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("^## Table `([a-z_]+)`")
	nameRE := regexp.MustCompile("`([a-z][a-z0-9_]*)`")
	tables := map[string][]schemaColumn{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		m := heading.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		table := m[1]
		seen := map[string]bool{}
		add := func(name, typ string) {
			if !seen[name] {
				seen[name] = true
				tables[table] = append(tables[table], schemaColumn{name, typ})
			}
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if strings.HasPrefix(lines[j], "|") {
			for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
				cells := strings.Split(lines[j], "|")
				if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "column" {
					continue
				}
				typ, _, _ := strings.Cut(strings.TrimSpace(cells[2]), ",")
				for _, name := range strings.Split(cells[1], ",") {
					add(strings.TrimSpace(name), strings.TrimSpace(typ))
				}
			}
		} else {
			for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
				for _, m := range nameRE.FindAllStringSubmatch(lines[j], -1) {
					add(m[1], "")
				}
			}
		}
		i = j - 1
	}
	for _, table := range columnar.Tables() {
		cols := tables[string(table)]
		if len(cols) < 4 || cols[0].name != "run_id" {
			t.Fatalf("docs/SCHEMA.md: table %s: parsed columns %v; has the layout of the file changed?", table, cols)
		}
	}
	return tables
}

// glueTypes maps the types of docs/SCHEMA.md and of the Arrow schemas to Glue's.
var glueTypes = map[string]string{
	"string": "string", "int32": "int", "int64": "bigint", "float64": "double",
	"bool": "boolean", "timestamp": "timestamp",
}

func TestTemplateGlueTables(t *testing.T) {
	tmpl := loadTemplate(t, nil)
	schema := schemaTables(t)
	dbID := glueDatabaseID(t, tmpl)
	byName := glueTablesByName(tmpl)
	for _, table := range columnar.Tables() {
		name := string(table)
		t.Run(name, func(t *testing.T) {
			id, ok := byName[name]
			if !ok {
				t.Fatalf("no Glue table %s", name)
			}
			tbl, _ := tmpl.GetGlueTableWithName(id)
			if tbl.DatabaseName != "Ref:"+dbID {
				t.Errorf("DatabaseName = %q, want !Ref %s", tbl.DatabaseName, dbID)
			}
			in := tbl.TableInput
			checkGlueStorage(t, in, name)
			checkGlueParameters(t, in)
			checkGlueColumns(t, in.StorageDescriptor, table, schemaGlueColumns(t, table, schema[name]))
		})
	}
	if len(byName) != len(columnar.Tables()) {
		t.Errorf("%d Glue tables, want %d", len(byName), len(columnar.Tables()))
	}
}

// glueDatabaseID is the logical ID of the template's one Glue database.
func glueDatabaseID(t *testing.T, tmpl *cloudformation.Template) string {
	t.Helper()
	dbs := tmpl.GetAllGlueDatabaseResources()
	if len(dbs) != 1 {
		t.Fatalf("%d Glue databases, want 1", len(dbs))
	}
	var dbID string
	for id := range dbs {
		dbID = id
	}
	return dbID
}

// glueTablesByName maps each Glue table's name to its logical ID.
func glueTablesByName(tmpl *cloudformation.Template) map[string]string {
	byName := map[string]string{}
	for id, tbl := range tmpl.GetAllGlueTableResources() {
		if tbl.TableInput != nil {
			byName[str(tbl.TableInput.Name)] = id
		}
	}
	return byName
}

// checkGlueStorage checks a table is external Parquet under
// s3://BUCKET/tables/NAME/.
func checkGlueStorage(t *testing.T, in *glue.Table_TableInput, name string) {
	t.Helper()
	sd := in.StorageDescriptor
	if sd == nil || sd.SerdeInfo == nil {
		t.Fatal("no StorageDescriptor.SerdeInfo")
	}
	for what, pair := range map[string][2]string{
		"SerializationLibrary": {str(sd.SerdeInfo.SerializationLibrary), "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
		"InputFormat":          {str(sd.InputFormat), "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"},
		"OutputFormat":         {str(sd.OutputFormat), "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"},
		"TableType":            {str(in.TableType), "EXTERNAL_TABLE"},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s = %q, want %q", what, pair[0], pair[1])
		}
	}
	loc := str(sd.Location)
	if !strings.HasPrefix(loc, "s3://") || !strings.HasSuffix(loc, "/tables/"+name+"/") {
		t.Errorf("Location = %q, want s3://BUCKET/tables/%s/", loc, name)
	}
}

// checkGlueParameters checks the partition key and the table parameters.
func checkGlueParameters(t *testing.T, in *glue.Table_TableInput) {
	t.Helper()
	if len(in.PartitionKeys) != 1 || in.PartitionKeys[0].Name != "experiment" || str(in.PartitionKeys[0].Type) != "string" {
		t.Errorf("PartitionKeys = %+v, want experiment string", in.PartitionKeys)
	}
	params, _ := in.Parameters.(map[string]any)
	if params["classification"] != "parquet" {
		t.Errorf("Parameters[classification] = %v, want parquet", params["classification"])
	}
	// The ingest registers partitions (internal/catalog): injected
	// partition projection would demand a WHERE naming experiments.
	for key := range params {
		if strings.HasPrefix(key, "projection.") || key == "storage.location.template" {
			t.Errorf("Parameters[%s] set: partition projection would hide the registered partitions", key)
		}
	}
}

// schemaGlueColumns is SCHEMA.md's columns of a table as "name type", in
// its order, the partition key left out; it checks each against the
// results package's schema.
func schemaGlueColumns(t *testing.T, table columnar.Table, cols []schemaColumn) []string {
	t.Helper()
	arrowSchema := table.Schema()
	var want []string
	for _, c := range cols {
		if c.name == "experiment" {
			continue
		}
		typ := glueTypes[c.typ]
		if f, ok := arrowSchema.FieldsByName(c.name); ok && len(f) == 1 {
			if at := catalog.GlueType(f[0].Type); typ == "" {
				typ = at
			} else if typ != at {
				t.Errorf("column %s: SCHEMA.md type %s, results schema %s", c.name, c.typ, f[0].Type)
			}
		} else {
			t.Errorf("column %s of SCHEMA.md is not in the results package's %s schema", c.name, table)
		}
		want = append(want, c.name+" "+typ)
	}
	return want
}

// checkGlueColumns checks the table's columns, and those of the
// partitions the ingest registers, are want.
func checkGlueColumns(t *testing.T, sd *glue.Table_StorageDescriptor, table columnar.Table, want []string) {
	t.Helper()
	var got []string
	for _, c := range sd.Columns {
		got = append(got, c.Name+" "+str(c.Type))
	}
	if !slices.Equal(got, want) {
		t.Errorf("columns differ from docs/SCHEMA.md\n got: %v\nwant: %v", got, want)
	}
	var reg []string
	for _, c := range catalog.Columns(table) {
		reg = append(reg, *c.Name+" "+*c.Type)
	}
	if !slices.Equal(reg, want) {
		t.Errorf("the partitions' columns (internal/catalog) differ from the table's\n got: %v\nwant: %v", reg, want)
	}
}

// s3Record is the part of an S3 event notification record the tests read.
type s3Record struct {
	EventSource string `json:"eventSource"`
	EventName   string `json:"eventName"`
	S3          struct {
		Bucket struct {
			Name string `json:"name"`
			ARN  string `json:"arn"`
		} `json:"bucket"`
		Object struct {
			Key string `json:"key"`
		} `json:"object"`
	} `json:"s3"`
}

func TestEvents(t *testing.T) {
	var put struct{ Records []s3Record }
	data, err := os.ReadFile("events/s3-put.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &put); err != nil {
		t.Fatalf("events/s3-put.json: %v", err)
	}
	if len(put.Records) < 2 {
		t.Fatalf("events/s3-put.json: %d records, want 2", len(put.Records))
	}
	var keys []string
	for i, r := range put.Records {
		if r.EventSource != "aws:s3" || !strings.HasPrefix(r.EventName, "ObjectCreated:") {
			t.Errorf("record %d: %s %s, want aws:s3 ObjectCreated:*", i, r.EventSource, r.EventName)
		}
		if r.S3.Bucket.Name != "loadverdict-results" || r.S3.Bucket.ARN != "arn:aws:s3:::"+r.S3.Bucket.Name {
			t.Errorf("record %d: bucket %q %q", i, r.S3.Bucket.Name, r.S3.Bucket.ARN)
		}
		// S3 URL-encodes keys in events, a space as '+'.
		key, err := url.QueryUnescape(r.S3.Object.Key)
		if err != nil {
			t.Errorf("record %d: key %q: %v", i, r.S3.Object.Key, err)
		}
		if !strings.HasPrefix(key, "raw/") {
			t.Errorf("record %d: key %q outside raw/ (the trigger's filter)", i, key)
		}
		keys = append(keys, key)
	}
	if keys[0] != "raw/zuul-vs-openresty/seed.txt" {
		t.Errorf("first key %q, want raw/zuul-vs-openresty/seed.txt", keys[0])
	}
	if !slices.ContainsFunc(put.Records, func(r s3Record) bool { return strings.Contains(r.S3.Object.Key, "+") }) {
		t.Error("no record with a space encoded as '+' in its key")
	}

	sameJSON(t, "the schedule's payload", []byte(`{"all": false}`), "events/schedule.json")
	sameJSON(t, "the one-experiment payload", []byte(`{"experiment": "zuul-vs-openresty"}`), "events/reanalyze-experiment.json")
}
