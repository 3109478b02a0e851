package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/glue/types"

	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// The Parquet formats of every table and partition (as template.yaml's
// Glue tables declare them).
const (
	InputFormat  = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"
	OutputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"
	SerDe        = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
)

// GlueAPI is the part of the Glue client the Registrar uses
// (*glue.Client implements it).
type GlueAPI interface {
	BatchCreatePartition(ctx context.Context, in *glue.BatchCreatePartitionInput, optFns ...func(*glue.Options)) (*glue.BatchCreatePartitionOutput, error)
}

// Registrar adds an experiment's partition to each table of a Glue
// database.
type Registrar struct {
	Client GlueAPI
	// Database is the Glue database holding the tables runs, percentiles,
	// series and samples.
	Database string
	// Root is the S3 location of the bucket (and prefix) the tables lie
	// under, "s3://bucket/" or "s3://bucket/prefix/".
	Root string
}

// New returns the Registrar of a Glue database over the bucket (and
// prefix) root, "s3://bucket[/prefix]", with the client made from the
// standard AWS configuration chain.
func New(ctx context.Context, database, root string) (*Registrar, error) {
	if database == "" || !strings.HasPrefix(root, "s3://") {
		return nil, fmt.Errorf("catalog: need a Glue database and an s3:// root, got %q and %q", database, root)
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	return &Registrar{Client: glue.NewFromConfig(cfg), Database: database, Root: strings.TrimSuffix(root, "/") + "/"}, nil
}

// GlueType is the Glue (Hive) type of an Arrow column type of the tables.
func GlueType(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.STRING:
		return "string"
	case arrow.INT32:
		return "int"
	case arrow.INT64:
		return "bigint"
	case arrow.FLOAT64:
		return "double"
	case arrow.BOOL:
		return "boolean"
	case arrow.TIMESTAMP:
		return "timestamp"
	}
	return ""
}

// Columns are a table's Glue columns: its schema's, in order, without
// experiment, which is the partition key.
func Columns(t columnar.Table) []types.Column {
	var out []types.Column
	for _, f := range t.Schema().Fields() {
		if f.Name == "experiment" {
			continue
		}
		out = append(out, types.Column{Name: aws.String(f.Name), Type: aws.String(GlueType(f.Type))})
	}
	return out
}

// Location is where a table's partition of an experiment lies: the
// Hive-style folder of the bucket layout, the name escaped
// (store.TablePrefix).
func (r *Registrar) Location(t columnar.Table, experiment string) string {
	return r.Root + store.TablePrefix(string(t), experiment)
}

// AddPartitions registers the partition experiment=<experiment> of every
// table. It is idempotent: a partition that already exists is success.
// Any other failure is returned (worth a retry).
func (r *Registrar) AddPartitions(ctx context.Context, experiment string) error {
	var errs []error
	for _, t := range columnar.Tables() {
		out, err := r.Client.BatchCreatePartition(ctx, &glue.BatchCreatePartitionInput{
			DatabaseName: aws.String(r.Database),
			TableName:    aws.String(string(t)),
			PartitionInputList: []types.PartitionInput{{
				Values: []string{experiment},
				StorageDescriptor: &types.StorageDescriptor{
					Location:     aws.String(r.Location(t, experiment)),
					InputFormat:  aws.String(InputFormat),
					OutputFormat: aws.String(OutputFormat),
					SerdeInfo: &types.SerDeInfo{SerializationLibrary: aws.String(SerDe),
						Parameters: map[string]string{"serialization.format": "1"}},
					Columns: Columns(t),
				},
			}},
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("catalog: %s.%s partition %q: %w", r.Database, t, experiment, err))
			continue
		}
		for _, pe := range out.Errors {
			if pe.ErrorDetail != nil && aws.ToString(pe.ErrorDetail.ErrorCode) == "AlreadyExistsException" {
				continue
			}
			msg := "unknown error"
			if pe.ErrorDetail != nil {
				msg = aws.ToString(pe.ErrorDetail.ErrorCode) + ": " + aws.ToString(pe.ErrorDetail.ErrorMessage)
			}
			errs = append(errs, fmt.Errorf("catalog: %s.%s partition %q: %s", r.Database, t, experiment, msg))
		}
	}
	return errors.Join(errs...)
}
