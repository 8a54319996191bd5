import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { OptionalText } from '../common/request-fields';
import { ValidatorCapabilitiesDto } from './validator-capabilities.dto';

/** Optional body of `POST /api/v1/validator/jobs/claim`: restrict the claim to one task. */
export class ValidatorJobClaimDto {
  @OptionalText('Only jobs of this task.')
  task_id: string | null = null;

  @OptionalText('Only jobs of the task with this slug.')
  task_slug: string | null = null;

  @ApiPropertyOptional({
    description: "What the validator's sandbox offers (our extension); absent or null: CPU only, no GPU. Only jobs whose task hardware it meets are leased.",
    type: () => ValidatorCapabilitiesDto,
    nullable: true,
    default: null,
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ValidatorCapabilitiesDto)
  capabilities: ValidatorCapabilitiesDto | null = null;
}
