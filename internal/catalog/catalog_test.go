package catalog

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// fakeGlue is an in-process Glue Data Catalog: it keeps partitions per
// database and table and answers BatchCreatePartition as Glue does, an
// existing partition being an AlreadyExistsException in the output's
// Errors, not an error of the call.
type fakeGlue struct {
	mu         sync.Mutex
	tables     map[string]bool                            // database.table that exist
	partitions map[string]map[string]types.PartitionInput // database.table -> value -> input
	calls      int
	fail       error // returned by every call when set
}

func newFake(db string) *fakeGlue {
	f := &fakeGlue{tables: map[string]bool{}, partitions: map[string]map[string]types.PartitionInput{}}
	for _, t := range columnar.Tables() {
		f.tables[db+"."+string(t)] = true
	}
	return f
}

func (f *fakeGlue) BatchCreatePartition(_ context.Context, in *glue.BatchCreatePartitionInput, _ ...func(*glue.Options)) (*glue.BatchCreatePartitionOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.fail != nil {
		return nil, f.fail
	}
	key := aws.ToString(in.DatabaseName) + "." + aws.ToString(in.TableName)
	out := &glue.BatchCreatePartitionOutput{}
	for _, p := range in.PartitionInputList {
		code := ""
		switch {
		case !f.tables[key]:
			code = "EntityNotFoundException"
		case f.partitions[key][strings.Join(p.Values, "/")].Values != nil:
			code = "AlreadyExistsException"
		}
		if code != "" {
			out.Errors = append(out.Errors, types.PartitionError{PartitionValues: p.Values,
				ErrorDetail: &types.ErrorDetail{ErrorCode: aws.String(code), ErrorMessage: aws.String(code + " " + key)}})
			continue
		}
		if f.partitions[key] == nil {
			f.partitions[key] = map[string]types.PartitionInput{}
		}
		f.partitions[key][strings.Join(p.Values, "/")] = p
	}
	return out, nil
}

func TestAddPartitions(t *testing.T) {
	ctx := context.Background()
	g := newFake("loadverdict")
	r := &Registrar{Client: g, Database: "loadverdict", Root: "s3://results-bucket/"}
	for _, exp := range []string{"nightly-01", "tuning a=b", "nightly-01"} {
		if err := r.AddPartitions(ctx, exp); err != nil {
			t.Fatalf("%s: %v", exp, err)
		}
	}
	if g.calls != 3*len(columnar.Tables()) {
		t.Errorf("%d calls, want one per table and experiment", g.calls)
	}
	for _, table := range columnar.Tables() {
		parts := g.partitions["loadverdict."+string(table)]
		if len(parts) != 2 {
			t.Errorf("%s: %d partitions, want 2 (the repeated one once)", table, len(parts))
		}
		p, ok := parts["tuning a=b"]
		if !ok {
			t.Fatalf("%s: no partition for the value as it is, %q", table, "tuning a=b")
		}
		sd := p.StorageDescriptor
		if want := "s3://results-bucket/tables/" + string(table) + "/experiment=tuning a%3Db/"; aws.ToString(sd.Location) != want {
			t.Errorf("%s: location %q, want %q (escaped as Hive does)", table, aws.ToString(sd.Location), want)
		}
		if aws.ToString(sd.InputFormat) != InputFormat || aws.ToString(sd.OutputFormat) != OutputFormat || aws.ToString(sd.SerdeInfo.SerializationLibrary) != SerDe {
			t.Errorf("%s: formats %+v", table, sd)
		}
		var cols []string
		for _, c := range sd.Columns {
			if aws.ToString(c.Type) == "" {
				t.Errorf("%s: column %s has no Glue type", table, aws.ToString(c.Name))
			}
			cols = append(cols, aws.ToString(c.Name))
		}
		var want []string
		for _, f := range table.Schema().Fields() {
			if f.Name != "experiment" {
				want = append(want, f.Name)
			}
		}
		if !slices.Equal(cols, want) {
			t.Errorf("%s: columns %v, want %v", table, cols, want)
		}
	}
	if got := aws.ToString(g.partitions["loadverdict.runs"]["nightly-01"].StorageDescriptor.Columns[8].Type); got != "timestamp" {
		t.Errorf("runs column 8 (started_at) is %s, want timestamp", got)
	}
}

func TestAddPartitionsErrors(t *testing.T) {
	ctx := context.Background()
	g := newFake("other")
	r := &Registrar{Client: g, Database: "loadverdict", Root: "s3://b/"}
	if err := r.AddPartitions(ctx, "x"); err == nil || !strings.Contains(err.Error(), "EntityNotFoundException") {
		t.Errorf("a database without the tables: err = %v", err)
	}
	boom := errors.New("throttled")
	g.fail = boom
	if err := (&Registrar{Client: g, Database: "other", Root: "s3://b/"}).AddPartitions(ctx, "x"); !errors.Is(err, boom) {
		t.Errorf("a failing call: err = %v, want it wrapped", err)
	}
	if _, err := New(ctx, "", "s3://b"); err == nil {
		t.Error("New without a database: no error")
	}
}
